import Foundation
import HearthHTTP

/// An IPv4 or IPv6 address as bytes; IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`) count as IPv4.
struct IPAddress: Equatable, Sendable {
    let bytes: [UInt8]

    init?(_ text: some StringProtocol) {
        let text = String(text).trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            let mapped = all.prefix(10).allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF
            bytes = mapped ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    /// How rate limits and lockouts name the client: an IPv4 address whole, an IPv6 address by its
    /// /64 (one subscriber's prefix, which a client can hop around in freely).
    var limitKey: String {
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

/// Proxies whose `X-Forwarded-For` Hearth believes: addresses or CIDR blocks (`10.0.0.0/8`, `::1`).
/// Empty (the default) believes no header: the client is the peer of the TCP connection.
public struct TrustedProxies: Sendable {
    private let networks: [(address: IPAddress, prefixLength: Int)]

    /// Trusts no proxy.
    public static let none = TrustedProxies(networks: [])

    private init(networks: [(address: IPAddress, prefixLength: Int)]) {
        self.networks = networks
    }

    /// Fails with the first entry that is not an address or a block.
    public init(_ entries: [String]) throws(InvalidEntry) {
        networks = try entries.map { entry throws(InvalidEntry) in
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let address = parts.first.flatMap({ IPAddress($0) }) else { throw InvalidEntry(entry: entry) }
            let bits = address.bytes.count * 8
            guard parts.count == 2 else { return (address, bits) }
            guard let length = Int(parts[1]), (0...bits).contains(length) else { throw InvalidEntry(entry: entry) }
            return (address, length)
        }
    }

    /// An entry that is neither an IP address nor a CIDR block.
    public struct InvalidEntry: Error, Sendable {
        public let entry: String
    }

    var isEmpty: Bool { networks.isEmpty }

    func contains(_ address: IPAddress) -> Bool {
        networks.contains { network in
            guard network.address.bytes.count == address.bytes.count else { return false }
            var remaining = network.prefixLength
            for (mine, theirs) in zip(network.address.bytes, address.bytes) where remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if mine & mask != theirs & mask { return false }
                remaining -= 8
            }
            return true
        }
    }

    /// The client behind a request: the peer, or, when the peer is a trusted proxy, the nearest
    /// address in `X-Forwarded-For` that is not itself a trusted proxy (read right to left, since
    /// everything left of the proxies is what the client chose to send).
    func client(of request: HTTPRequest) -> String? {
        guard let peer = request.remoteAddress, let peerAddress = IPAddress(peer), contains(peerAddress) else {
            return request.remoteAddress
        }
        let forwarded = request.headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in forwarded.reversed() {
            guard let address = IPAddress(hop) else { break }
            client = hop
            if !contains(address) { break }
        }
        return client
    }
}

/// Replaces the request's `remoteAddress` with the client behind trusted proxies (see
/// `TrustedProxies.client(of:)`), so everything after it limits the real client.
struct ResolveClientAddress: HTTPMiddleware {
    let trusted: TrustedProxies

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        guard !trusted.isEmpty else { return try next(request) }
        var request = request
        request.remoteAddress = trusted.client(of: request)
        return try next(request)
    }
}

extension HTTPRequest {
    /// The client as rate limits and lockouts name it (see `IPAddress.limitKey`); nil for in-process
    /// requests.
    var clientKey: String? {
        guard let address = remoteAddress else { return nil }
        return IPAddress(address)?.limitKey ?? address
    }
}
