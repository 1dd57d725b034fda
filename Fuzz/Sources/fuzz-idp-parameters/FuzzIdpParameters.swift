import FuzzSupport
@_spi(Fuzzing) import HearthCore
import HearthProtocol

/// The merge of a `signInWithIdp` request's IdP parameters (HearthCore/Accounts/IdpParameters.swift): the
/// `requestUri` query, then the `postBody` form, then the `requestUri` fragment, later ones winning.
///
/// The input is the `requestUri`, a newline, and the `postBody`. Besides not crashing, every parameter the merge
/// reports must have the value of that name in the last of the three sources that has it, and never be empty.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let requestURI = String(lines[0])
    let postBody = lines.count > 1 ? String(lines[1]) : nil
    guard let parameters = try? IdpParameters(SignInWithIdpRequest(requestUri: requestURI, postBody: postBody)) else {
        return 0
    }

    let (query, fragment) = split(requestURI)
    let sources = [query, Substring(postBody ?? ""), fragment].map { FormEncoding.decode($0) }
    let names = Set(sources.flatMap { $0.map(\.name) }).union(["providerId", "id_token", "access_token", "nonce", "code"])
    for name in names {
        let expected = sources.reversed().lazy.compactMap { $0.last { $0.name == name }?.value }.first
        let merged = parameters[name]
        require(merged == nil || merged?.isEmpty == false, "an empty value is reported as present")
        require(merged == expected || (merged == nil && expected == ""), "a parameter has the wrong source's value")
    }
    return 0
}

/// The query (between the first `?` and the fragment) and the fragment (after the first `#`) of a URI, found as
/// bytes as RFC 3986 §3 delimits them.
private func split(_ uri: String) -> (query: Substring, fragment: Substring) {
    let hash = uri.utf8.firstIndex(of: UInt8(ascii: "#"))
    let beforeFragment = uri[..<(hash ?? uri.endIndex)]
    let fragment = hash.map { uri[uri.utf8.index(after: $0)...] } ?? ""
    let question = beforeFragment.utf8.firstIndex(of: UInt8(ascii: "?"))
    let query = question.map { beforeFragment[beforeFragment.utf8.index(after: $0)...] } ?? ""
    return (query, fragment)
}
