import Foundation
import HearthCommandLine
import HearthCore
import HearthServer

/// A step of `hearth serve`: who delivers SMS codes and emails.
struct ServeSenders {
    let sms: any SMSSender
    /// The codes the development SMS sender logged (`GET /emulator/v1/projects/{p}/verificationCodes`); nil otherwise.
    let developmentCodes: (@Sendable () -> [DeliveredCode])?
    let email: any EmailSender

    /// SMTP or the webhook when configured, else the development log in --dev; without either, email actions fail.
    init(_ serve: ServeSettings) throws {
        let settings = serve.settings
        (sms, developmentCodes) = try Self.smsSender(settings, policy: settings.mfaPolicy, log: serve.log)
        let fallbackEmailSender: any EmailSender =
            settings.development ? DevelopmentEmailSender(log: serve.log) : UnavailableEmailSender()
        email = try settings.emailSender() ?? fallbackEmailSender
    }

    /// The SMS sender: a configured webhook or Twilio-compatible API, else in development the log sender
    /// (whose codes `GET /emulator/v1/projects/{p}/verificationCodes` lists). Phone factors without a sender
    /// outside development are a configuration error.
    private static func smsSender(_ settings: Settings, policy: MFAPolicy, log: @escaping @Sendable (String) -> Void) throws
        -> (any SMSSender, (@Sendable () -> [DeliveredCode])?)
    {
        let sms = settings.sms
        if let webhook = sms.webhookUrl {
            guard let url = URL(string: webhook), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError("sms webhook URL must be an http(s) URL")
            }
            return (WebhookSMSSender(url: url, secret: sms.webhookSecret), nil)
        }
        if let accountSID = sms.twilioAccountSid {
            guard let token = sms.twilioAuthToken, let from = sms.twilioFrom else {
                throw UsageError("Twilio SMS needs an account SID, an auth token and a from number")
            }
            guard let base = URL(string: sms.twilioBaseUrl ?? "https://api.twilio.com") else {
                throw UsageError("Twilio base URL is not a URL")
            }
            return (TwilioSMSSender(baseURL: base, accountSID: accountSID, authToken: token, from: from), nil)
        }
        if settings.development {
            let sender = DevelopmentSMSSender(log: log)
            return (sender, { sender.deliveredCodes })
        }
        if policy.factors.contains(.phone) {
            throw UsageError("phone second factors need an SMS sender: set sms.webhookUrl or the Twilio settings (see docs/CONFIGURATION.md)")
        }
        return (UnavailableSMSSender(), nil)
    }
}
