import Foundation
import Testing

@testable import SMTP

private let sender = try! MailAddress(parsing: "Hearth <no-reply@example.com>", field: "From")
private let alice = try! MailAddress(address: "alice@example.com", field: "To")
/// Tue, 1 Dec 2026 16:00:00 UTC.
private let date = Date(timeIntervalSince1970: 1_796_140_800)

private func rendered(_ message: MailMessage) throws -> String {
    String(decoding: try message.rendered(), as: UTF8.self)
}

/// Undoes the builder's folded RFC 2047 `B` encoded words.
private func decodedHeader(_ value: String) -> String {
    value.components(separatedBy: "\r\n ").map { word in
        guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
            let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
        else { return "<not an encoded word: \(word)>" }
        return String(decoding: data, as: UTF8.self)
    }.joined()
}

@Suite("MailMessage: the RFC 5322 message")
struct MailMessageTests {
    @Test func plainTextMessageIsExactlyAsExpected() throws {
        let message = MailMessage(
            from: sender, to: alice, subject: "Verify your email for demo-hearth",
            text: "Follow this link:\nhttps://example.com/a?oobCode=abc&mode=verifyEmail\n", date: date,
            messageID: "<m1@example.com>")
        #expect(try rendered(message) == """
            Date: Tue, 1 Dec 2026 16:00:00 +0000\r
            From: Hearth <no-reply@example.com>\r
            To: alice@example.com\r
            Subject: Verify your email for demo-hearth\r
            Message-ID: <m1@example.com>\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            Follow this link:\r
            https://example.com/a?oobCode=3Dabc&mode=3DverifyEmail\r

            """)
    }

    @Test func textAndHTMLWithNonASCIIHeadersIsExactlyAsExpected() throws {
        let from = try MailAddress(address: "no-reply@example.com", displayName: "Équipe Hearth", field: "From")
        let message = MailMessage(
            from: from, to: alice, subject: "Réinitialisez votre mot de passe", text: "Bonjour Zoë, ça va ?",
            html: "<p>Bonjour Zoë</p>", date: date, messageID: "<m2@example.com>", boundary: "=_b1")
        #expect(try rendered(message) == """
            Date: Tue, 1 Dec 2026 16:00:00 +0000\r
            From: =?UTF-8?B?w4lxdWlwZSBIZWFydGg=?= <no-reply@example.com>\r
            To: alice@example.com\r
            Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3Nl?=\r
            Message-ID: <m2@example.com>\r
            MIME-Version: 1.0\r
            Content-Type: multipart/alternative;\r
             boundary="=_b1"\r
            --=_b1\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            Bonjour Zo=C3=AB, =C3=A7a va ?\r
            \r
            --=_b1\r
            Content-Type: text/html; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            <p>Bonjour Zo=C3=AB</p>\r
            \r
            --=_b1--\r

            """)
    }

    @Test func defaultsAreARandomMessageIDAtTheSendersDomainAndABoundaryStartingWithEqualsUnderscore() {
        let first = MailMessage(from: sender, to: alice, subject: "s", text: "t")
        let second = MailMessage(from: sender, to: alice, subject: "s", text: "t")
        #expect(first.messageID.hasPrefix("<") && first.messageID.hasSuffix("@example.com>"))
        #expect(first.messageID.count == "<@example.com>".count + 32)
        #expect(first.messageID != second.messageID)
        #expect(first.boundary.hasPrefix("=_") && first.boundary != second.boundary)
    }

    @Test func longAndNonASCIISubjectsBecomeFoldedEncodedWordsThatDecodeBack() throws {
        let subjects = [
            String(repeating: "Ünïcødé 🔑 ", count: 20),
            String(repeating: "a", count: 1_000),
            "Looks like =?UTF-8?B?YQ==?= an encoded word",
            "Tab\there",
        ]
        for subject in subjects {
            let text = try rendered(MailMessage(from: sender, to: alice, subject: subject, text: "t", date: date))
            let lines = text.components(separatedBy: "\r\n")
            let start = try #require(lines.firstIndex { $0.hasPrefix("Subject: ") })
            var value = String(lines[start].dropFirst("Subject: ".count))
            for line in lines[(start + 1)...] {
                guard line.hasPrefix(" ") else { break }
                value += "\r\n" + line
            }
            #expect(value.hasPrefix("=?UTF-8?B?"))
            #expect(decodedHeader(value) == subject)
            for line in lines[start...] where line.hasPrefix(" ") || line.hasPrefix("Subject:") {
                #expect(line.utf8.count <= 76)
            }
        }
    }

    @Test func displayNamesWithSpecialsAreQuoted() throws {
        let from = try MailAddress(parsing: #""Hearth, \"Inc.\" \\ Co" <no-reply@example.com>"#, field: "From")
        #expect(from.displayName == #"Hearth, "Inc." \ Co"#)
        let text = try rendered(MailMessage(from: from, to: alice, subject: "s", text: "t", date: date))
        #expect(text.contains(#"\#r\#nFrom: "Hearth, \"Inc.\" \\ Co" <no-reply@example.com>\#r\#n"#))
    }

    @Test func aBareAddressParsesWithoutADisplayName() throws {
        let address = try MailAddress(parsing: "  no-reply@example.com ", field: "From")
        #expect(address.address == "no-reply@example.com" && address.displayName == nil)
        #expect(address.domain == "example.com")
    }
}

@Suite("MailMessage: header injection and bad addresses are refused")
struct MailMessageRefusalTests {
    @Test(arguments: ["Hi\r\nBcc: victim@example.com", "Hi\nBcc: victim@example.com", "Hi\rBcc: x@example.com", "\n"])
    func aSubjectWithALineBreakIsRefused(subject: String) {
        let message = MailMessage(from: sender, to: alice, subject: subject, text: "t")
        #expect(throws: MailFormatError.lineBreakInHeader(field: "Subject")) { try message.rendered() }
    }

    @Test(arguments: ["alice@example.com\r\nBcc: victim@example.com", "alice@example.com\nX: y", "alice@example.com\r"])
    func anAddressWithALineBreakIsRefused(address: String) {
        #expect(throws: MailFormatError.lineBreakInHeader(field: "To")) { try MailAddress(address: address, field: "To") }
    }

    @Test func aDisplayNameWithALineBreakIsRefused() {
        #expect(throws: MailFormatError.lineBreakInHeader(field: "From")) {
            try MailAddress(parsing: "Hearth\r\nBcc: victim@example.com <no-reply@example.com>", field: "From")
        }
    }

    @Test(arguments: [
        "", "alice", "@example.com", "alice@", "alice@@example.com", "a@b@example.com", "alice smith@example.com",
        "<alice@example.com>", "alice@example.com, bob@example.com", "alice@example.com>", "\"alice\"@example.com",
        "zoë@example.com", "alice@exämple.com", "alice\0@example.com", "alice@example.com;bob@example.com",
        String(repeating: "a", count: 250) + "@example.com",
    ])
    func anAddressThatIsNotPlainIsRefused(address: String) {
        #expect(throws: MailFormatError.invalidAddress(field: "To")) { try MailAddress(address: address, field: "To") }
    }

    @Test(arguments: ["Hearth <no-reply@example.com", "Hearth <>", "Hearth <a@b> trailing"])
    func aMalformedMailboxIsRefused(text: String) {
        #expect(throws: MailFormatError.invalidAddress(field: "From")) { try MailAddress(parsing: text, field: "From") }
    }
}
