import FuzzSupport
@_spi(Fuzzing) import HearthHTTP
import HearthProtocol

/// Form and percent decoding: HearthProtocol's `FormEncoding` (form bodies such as `postBody` and token requests)
/// and HearthHTTP's `PercentDecoding` (request paths and queries).
///
/// The two decoders implement the same rules separately, so they must agree on every input: the same pairs from a
/// query or form, and the same path (where `+` is not a space). Encoding what was decoded and decoding it again gives
/// the same pairs, and escaping any text and unescaping it gives the text back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    let pairs = FormEncoding.decode(text)
    let query = PercentDecoding.parseQuery(text)
    require(pairs.count == query.count, "FormEncoding found \(pairs.count) pairs, PercentDecoding \(query.count)")
    for (form, percent) in zip(pairs, query) {
        require(same(form.name, percent.0) && same(form.value, percent.1), "FormEncoding and PercentDecoding disagree")
    }

    let reencoded = FormEncoding.encode(pairs.map { ($0.name, $0.value) })
    let again = FormEncoding.decode(reencoded)
    require(again.count == pairs.count, "encode then decode changed the number of pairs")
    for (before, after) in zip(pairs, again) {
        require(same(before.name, after.name) && same(before.value, after.value), "encode then decode changed a pair")
    }

    require(same(FormEncoding.unescape(FormEncoding.escape(text)), text), "unescape(escape(text)) is not the text")

    // A path keeps `+`; with every `+` escaped first, form decoding must give the same text.
    let path = PercentDecoding.decodePath(text)
    let plusEscaped = text.utf8.flatMap { $0 == UInt8(ascii: "+") ? Array("%2B".utf8) : [$0] }
    let viaForm = FormEncoding.unescape(String(decoding: plusEscaped, as: UTF8.self))
    require(same(path, viaForm), "decodePath disagrees with form decoding")
    require(same(PercentDecoding.decodeFormComponent(text), FormEncoding.unescape(text)), "the two unescapes disagree")
    return 0
}

/// Byte-for-byte equality (Swift's `==` on strings compares canonical equivalents as equal).
private func same(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8)
}
