import Foundation

/// Two `hearth serve --dev` processes on one PostgreSQL database of their own, with the same settings and the same
/// public URL (that of the load balancer that would stand in front of them), each on a port of its own; tests send
/// each request to the instance they choose, as a load balancer might.
final class InstancePair {
    let database: TestPostgresDatabase
    let a: HearthProcess
    let b: HearthProcess
    /// The URL both instances are configured with (nothing listens there: the instances call themselves in process).
    let publicURL: String

    init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        database = try TestPostgresDatabase()
        publicURL = "http://127.0.0.1:\(try unusedPort())"
        let shared = ["--dev", "--database", database.url, "--public-url", publicURL] + arguments
        a = HearthProcess(arguments: shared, environment: environment)
        b = HearthProcess(arguments: shared, environment: environment)
        // Both at once, on an empty database: one makes the schema and the first signing keys, the other waits or
        // retries and uses them.
        let ports = [try unusedPort(), try unusedPort()]
        let failures = Locked<[String]>([])
        let (a, b) = (a, b)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                try [a, b][index].start(port: ports[index])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        if let failure = failures.value.first { throw RawHTTP.Failure(description: failure) }
    }

    /// Runs `hearth <arguments> --database <url>` (keys, users) against the shared database.
    func runCommand(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try HearthProcess.run(arguments + ["--database", database.url])
    }

    deinit {
        a.stop()
        b.stop()
    }
}

/// A loopback TCP port that nothing listens on now (the kernel's choice for port 0).
func unusedPort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RawHTTP.Failure(description: "socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw RawHTTP.Failure(description: "cannot bind a loopback port") }
    return UInt16(bigEndian: address.sin_port)
}
