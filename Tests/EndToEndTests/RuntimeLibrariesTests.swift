import Foundation
import Testing

/// The `hearth` binary links the Swift runtime and Foundation statically: it needs only the Debian libraries
/// docs/DEPLOYMENT.md lists ("Runtime libraries"), and runs where the Swift toolchain is not.
@Suite("hearth runtime libraries (e2e)", .blocking)
struct RuntimeLibrariesTests {
    @Test("it needs exactly the libraries DEPLOYMENT.md lists, each from its Debian package; nothing resolves into the toolchain")
    func librariesAreTheDocumentedOnes() throws {
        let binary = HearthProcess.executable.path
        let toolchain = try Self.toolchainFolder()
        let documented = try Self.documentedLibraries()
        try #require(!documented.isEmpty, "no library table under \"### Runtime libraries\" in docs/DEPLOYMENT.md")

        let dynamic = try Self.run("/usr/bin/readelf", ["-d", binary])
        try #require(dynamic.status == 0, "\(dynamic.stderr)")
        let entries = dynamic.stdout.split(separator: "\n")
        let searchPaths = entries.filter { $0.contains("(RUNPATH)") || $0.contains("(RPATH)") }
            .flatMap { line in Self.bracketed(line).split(separator: ":").map(String.init) }
        #expect(!searchPaths.contains { $0.hasPrefix(toolchain) }, "RUNPATH/RPATH into the toolchain: \(searchPaths)")
        // The program interpreter (ld-linux-x86-64.so.2 on x86-64) comes with libc6 and is named by architecture.
        let needed = entries.filter { $0.contains("(NEEDED)") }.map(Self.bracketed).filter { !$0.hasPrefix("ld-linux") }
        #expect(Set(needed) == Set(documented.keys), "NEEDED: \(needed.sorted()), DEPLOYMENT.md: \(documented.keys.sorted())")

        // Everything the loader resolves, the libraries' own dependencies included.
        let resolved = try Self.resolvedLibraries(binary)
        #expect(resolved.filter { $0.path.hasPrefix(toolchain) }.isEmpty, "resolved under \(toolchain): \(resolved)")
        #expect(resolved.filter { !$0.path.hasPrefix("/") }.isEmpty, "not found: \(resolved)")
        for name in needed {
            let path = try #require(resolved.first { $0.name == name }?.path, "\(name) is not resolved")
            let owner = try Self.debianPackage(owning: path)
            #expect(owner == documented[name], "\(name) (\(path)) is in \(owner ?? "no package")")
        }
    }

    @Test("the binary runs with the toolchain folder out of reach")
    func runsWithoutTheToolchain() throws {
        let toolchain = try Self.toolchainFolder()
        let binary = HearthProcess.executable.path
        let empty = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        // In a private mount namespace (as root, or as a user mapped to root where user namespaces are allowed), an
        // empty folder is mounted over the toolchain's, so nothing in it can be loaded.
        let script = #"mount --bind "$1" "$2" && [ -z "$(ls -A "$2")" ] && echo toolchain-hidden && exec env -i "$3" --version"#
        let unshareOptions = geteuid() == 0 ? ["-m"] : ["-r", "-m"]
        let hidden = try Self.run("/usr/bin/unshare", unshareOptions + ["sh", "-c", script, "sh", empty.path, toolchain, binary])
        if hidden.stdout.hasPrefix("toolchain-hidden\n") {
            #expect(hidden.status == 0, "\(hidden.stderr)")
            #expect(hidden.stdout.wholeMatch(of: /toolchain-hidden\nhearth \S+\n/) != nil, "\(hidden.stdout)\(hidden.stderr)")
            return
        }
        // No mount namespace here: a copy of the binary in a folder of its own, with an empty environment (no
        // LD_LIBRARY_PATH, no $ORIGIN neighbours); the other test has checked that nothing points into the toolchain.
        Swift.print("RuntimeLibrariesTests: cannot hide \(toolchain) (\(hidden.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); running a copy with env -i")
        let copy = empty.appendingPathComponent("hearth").path
        try FileManager.default.copyItem(atPath: binary, toPath: copy)
        let alone = try Self.run("/usr/bin/env", ["-i", copy, "--version"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.wholeMatch(of: /hearth \S+\n/) != nil, "\(alone.stdout)")
    }

    /// The toolchain's `usr` folder (`/opt/swift/usr`), from `swift -print-target-info`'s runtime resource path
    /// (`/opt/swift/usr/lib/swift`).
    static func toolchainFolder() throws -> String {
        let info = try run("/usr/bin/env", ["swift", "-print-target-info"])
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let paths = json?["paths"] as? [String: Any]
        let resource = try #require(
            paths?["runtimeResourcePath"] as? String, "swift -print-target-info (is swift on PATH?): \(info.stderr)")
        let folder = URL(fileURLWithPath: resource).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().path
        try #require(folder.count > 1, "toolchain folder from \(resource)")
        return folder
    }

    /// DEPLOYMENT.md's "Runtime libraries" table: `| `libssl.so.3` | `libssl3` |` rows, soname → Debian package.
    static func documentedLibraries() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/DEPLOYMENT.md"), encoding: .utf8)
        guard let start = text.range(of: "\n### Runtime libraries\n") else { return [:] }
        let rest = text[start.upperBound...]
        let section = rest.range(of: "\n#").map { rest[..<$0.lowerBound] } ?? rest
        var libraries: [String: String] = [:]
        for line in section.split(separator: "\n") {
            guard let row = line.wholeMatch(of: /\| `([^`]+)` +\| `([^`]+)` +\|.*/) else { continue }
            libraries[String(row.1)] = String(row.2)
        }
        return libraries
    }

    /// `[text]` at the end of a `readelf -d` line: the library name or the search path.
    static func bracketed(_ line: Substring) -> String {
        guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return "" }
        return String(line[line.index(after: open)..<close])
    }

    /// The libraries the dynamic loader finds for `binary` (`name => path` lines of `ldd`; the vDSO and the loader
    /// itself have no `=>`), in an empty environment so no LD_LIBRARY_PATH steers it.
    static func resolvedLibraries(_ binary: String) throws -> [(name: String, path: String)] {
        let ldd = try run("/usr/bin/env", ["-i", "/usr/bin/ldd", binary])
        try #require(ldd.status == 0, "ldd: \(ldd.stdout)\(ldd.stderr)")
        return ldd.stdout.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: /\s*(\S+) => (.+?)(?: \(0x[0-9a-f]+\))?/) else { return nil }
            return (String(match.1), String(match.2))
        }
    }

    /// The Debian package that installed `path` (`dpkg -S`), trying the path ldd printed and its real path, with
    /// and without the `/usr` prefix (merged /usr).
    static func debianPackage(owning path: String) throws -> String? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var candidates: [String] = []
        for file in [path, real] {
            candidates.append(file)
            candidates.append(file.hasPrefix("/usr/") ? String(file.dropFirst(4)) : "/usr" + file)
        }
        for candidate in candidates {
            let search = try run("/usr/bin/dpkg", ["-S", candidate])
            if search.status == 0, let package = search.stdout.split(separator: ":").first {
                return String(package)
            }
        }
        return nil
    }

    static func run(_ program: String, _ arguments: [String]) throws -> ProgramResult {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw RawHTTP.Failure(description: "\(program) is missing (Debian: util-linux, binutils, dpkg, libc-bin)")
        }
        return try runProgramSplit(URL(fileURLWithPath: program), arguments)
    }
}
