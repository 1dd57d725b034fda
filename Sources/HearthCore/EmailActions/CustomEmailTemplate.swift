public import HearthProtocol

/// A template the config API set for one kind of email (Identity Platform's `notification.sendEmail.<name>`:
/// `resetPasswordTemplate`, `verifyEmailTemplate` (also the new address's email of a change), `changeEmailTemplate`
/// (the old address's recovery email)): its `subject` and `body` with Firebase's placeholders, the body `PLAIN_TEXT`
/// or `HTML`. What a template leaves out is Hearth's own.
public struct CustomEmailTemplate: Sendable, Equatable {
    public var subject: String?
    public var body: String?
    public var isHTML: Bool

    /// The placeholders a template may hold, as Firebase's.
    public static let placeholders: Set<String> = ["DISPLAY_NAME", "APP_NAME", "LINK", "EMAIL", "NEW_EMAIL"]
    /// The template names, and the kinds of email each is for.
    public static let names: [String: Set<OOBCodeRecord.Kind>] = [
        "resetPasswordTemplate": [.passwordReset], "verifyEmailTemplate": [.verifyEmail, .verifyAndChangeEmail],
        "changeEmailTemplate": [.recoverEmail],
    ]
    static let maximumSubjectLength = 500
    static let maximumBodyLength = 20_000

    public init(subject: String? = nil, body: String? = nil, isHTML: Bool = false) {
        self.subject = subject
        self.body = body
        self.isHTML = isHTML
    }

    /// The template a stored object states (checked when written); nil when it sets neither subject nor body.
    init?(config: JSONValue?) {
        let subject = config?["subject"]?.stringValue
        let body = config?["body"]?.stringValue
        guard subject != nil || body != nil else { return nil }
        self.init(subject: subject, body: body, isHTML: config?["bodyFormat"]?.stringValue == "HTML")
    }

    /// Refuses a member value a template cannot take (`INVALID_CONFIG` naming `path`): a subject over 500
    /// characters or with a line break, a body over 20,000, a `bodyFormat` other than `PLAIN_TEXT` or `HTML`, and
    /// a `%NAME%` that is not one of ``placeholders``.
    static func check(_ member: String, _ value: JSONValue, path: String) throws {
        if member == "bodyFormat" {
            guard ["PLAIN_TEXT", "HTML"].contains(value.stringValue ?? "") else {
                throw WireError(.invalidConfig, "\(path) must be PLAIN_TEXT or HTML.")
            }
            return
        }
        let limit = member == "subject" ? maximumSubjectLength : maximumBodyLength
        guard let text = value.stringValue, text.count <= limit else {
            throw WireError(.invalidConfig, "\(path) must be text of at most \(limit) characters.")
        }
        if member == "subject", text.contains(where: \.isNewline) {
            throw WireError(.invalidConfig, "\(path) must be one line.")
        }
        if let unknown = tokens(in: text).first(where: { !placeholders.contains($0) }) {
            throw WireError(
                .invalidConfig,
                "\(path) holds an unknown placeholder %\(TenantFields.shown(unknown))%; known: %\(placeholders.sorted().joined(separator: "%, %"))%.")
        }
    }

    /// `text` with each placeholder replaced by its value (escaped for HTML when `html`); a `%` that opens no
    /// placeholder stays.
    static func render(_ text: String, values: [String: String], html: Bool) -> String {
        var output = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "%") {
            output += rest[..<start]
            let after = rest[rest.index(after: start)...]
            if let end = after.firstIndex(of: "%"), let value = values[String(after[..<end])] {
                output += html ? HTMLText.escape(value) : value
                rest = after[after.index(after: end)...]
            } else {
                output += "%"
                rest = after
            }
        }
        return output + rest
    }

    /// The names between `%` signs that look like placeholders: upper-case letters and underscores.
    private static func tokens(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "%") {
            let after = rest[rest.index(after: start)...]
            guard let end = after.firstIndex(of: "%") else { break }
            let name = after[..<end]
            if !name.isEmpty, name.allSatisfy({ ("A"..."Z").contains($0) || $0 == "_" }) {
                found.append(String(name))
                rest = after[after.index(after: end)...]
            } else {
                rest = after
            }
        }
        return found
    }
}
