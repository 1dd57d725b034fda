import Testing

@testable import SMTP

@Suite("MailEncoding: quoted-printable bodies")
struct QuotedPrintableTests {
    @Test func longLinesAreSoftBrokenWithinSeventySixColumns() {
        let x = { String(repeating: "x", count: $0) }
        #expect(MailEncoding.quotedPrintable(x(200)) == x(75) + "=\r\n" + x(75) + "=\r\n" + x(50) + "\r\n")
        // An escape is never split by a soft break.
        #expect(MailEncoding.quotedPrintable(x(74) + "é") == x(74) + "=\r\n=C3=A9\r\n")
    }

    @Test func equalsSignsControlBytesAndWhitespaceAtALinesEndAreEscaped() {
        #expect(MailEncoding.quotedPrintable("a = b \nc\t\r\n\u{1}") == "a =3D b=20\r\nc=09\r\n=01\r\n")
    }

    @Test func anyLineBreakBecomesCRLFAndAFinalBreakAddsNoEmptyLine() {
        #expect(MailEncoding.quotedPrintable("a\r\nb\nc\rd\n") == "a\r\nb\r\nc\r\nd\r\n")
        #expect(MailEncoding.quotedPrintable("a\n\n") == "a\r\n\r\n")
        #expect(MailEncoding.quotedPrintable("") == "\r\n")
    }

    @Test func theOutputNeverContainsEqualsUnderscoreSoBoundariesCannotOccurInIt() {
        #expect(!MailEncoding.quotedPrintable("--=_hearth_1234 =_ = _").contains("=_"))
    }
}

@Suite("SMTPError")
struct SMTPErrorTests {
    @Test func networkTroubleAndTemporaryRefusalsAreTransient() {
        let transient: [SMTPError] = [
            .couldNotConnect, .timedOut, .connectionLost, .senderRefused(replyCode: 451),
            .recipientRefused(replyCode: 450), .messageRefused(replyCode: 452),
        ]
        #expect(transient.allSatisfy { $0.isTransient })
    }

    @Test func credentialsTLSAndPermanentRefusalsAreFinal() {
        let final: [SMTPError] = [
            .authenticationRefused(replyCode: 535), .tlsFailure, .senderRefused(replyCode: 553),
            .recipientRefused(replyCode: 550), .messageRefused(replyCode: 554), .failed(curlCode: 3),
        ]
        #expect(!final.contains { $0.isTransient })
    }

    @Test func descriptionsNameTheReasonAndReplyCode() {
        #expect(SMTPError.authenticationRefused(replyCode: 535).description == "authentication refused (535)")
        #expect(SMTPError.recipientRefused(replyCode: 550).description == "recipient refused (550)")
        #expect(MailFormatError.lineBreakInHeader(field: "Subject").description
            == "the Subject header must not contain a line break")
    }

    @Test func theServerURLNamesTheSchemeOfItsTLSMode() {
        #expect(SMTPServer(host: "mail.example.com", port: 587, security: .startTLS).url == "smtp://mail.example.com:587")
        #expect(SMTPServer(host: "mail.example.com", port: 465, security: .implicitTLS).url == "smtps://mail.example.com:465")
        #expect(SMTPServer(host: "::1", port: 25, security: .none).url == "smtp://[::1]:25")
    }
}
