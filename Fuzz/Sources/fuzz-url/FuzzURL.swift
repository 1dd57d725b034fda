import Foundation
import FuzzSupport
import HearthProtocol

/// `BrowserURL` (HearthProtocol/URLs), the reader of URLs Hearth sends browsers to, against Foundation's RFC 3986
/// `URLComponents`: whatever `BrowserURL` accepts, `URLComponents` reads with the same scheme, host and port (so no
/// URL it accepts means one host to Hearth and another to a standards-following parser); its text reads back as the
/// same URL, and adding a query keeps the scheme, host, port and fragment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let url = try? BrowserURL(parsing: text) else { return 0 }
    let components = URLComponents(string: text)
    require(components != nil, "BrowserURL accepted a URL URLComponents refuses")
    require(components?.scheme?.lowercased() == url.scheme.rawValue, "URLComponents reads another scheme")
    require(components?.encodedHost?.lowercased() == url.host, "URLComponents reads another host")
    require(components?.port == url.port, "URLComponents reads another port")

    require((try? BrowserURL(parsing: url.description)) == url, "the URL's text does not read back as the same URL")
    let added = try? BrowserURL(parsing: url.addingQuery("mode=signIn&oobCode=c"))
    require(
        added?.scheme == url.scheme && added?.host == url.host && added?.port == url.port && added?.fragment == url.fragment,
        "adding a query changed the scheme, host, port or fragment")
    return 0
}
