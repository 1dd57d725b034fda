"""A local SMTP server for the email delivery tests (aiosmtpd on an ephemeral loopback port).

Prints `SMTP sink listening on 127.0.0.1:<port>` once it accepts connections, then one line per received message:
`MESSAGE {"mailFrom": …, "rcptTos": […], "data": <base64 of the raw DATA>, "tls": bool, "login": str|null,
"subject": …, "from": …, "to": …, "messageId": …, "text": …, "html": …|null}` (the headers decoded and the bodies
parsed by Python's `email` package, lines ending in a newline). aiosmtpd's log (every command it receives) goes to
stderr. Runs until it is terminated.

Options:
  --tls CERT KEY    offer STARTTLS with this certificate and require it before MAIL
  --auth USER PASS  require AUTH (PLAIN or LOGIN, only after STARTTLS when --tls is given) with these credentials
  --refuse PREFIX   answer 550 to RCPT TO addresses starting with PREFIX
  --tempfail N      answer 451 to the first N messages' DATA
  --silent          accept connections but never say anything (for timeouts)
"""

import argparse
import asyncio
import base64
import email
import email.policy
import json
import logging
import signal
import socket
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def lines(content):
    """The content with the message's CRLF line ends as newlines."""
    return content.replace("\r\n", "\n")


class Handler:
    def __init__(self, refuse, tempfail):
        self.refuse = refuse
        self.tempfail = tempfail

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse and address.startswith(self.refuse):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.tempfail > 0:
            self.tempfail -= 1
            return "451 4.3.0 Try again later"
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = message.get_body(("plain",))
        html = message.get_body(("html",))
        record = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "data": base64.b64encode(raw).decode("ascii"),
            "tls": session.ssl is not None,
            "login": session.auth_data.login.decode("utf-8") if session.auth_data is not None else None,
            "subject": str(message["subject"]),
            "from": str(message["from"]),
            "to": str(message["to"]),
            "messageId": str(message["message-id"]),
            "text": lines(text.get_content()) if text is not None else None,
            "html": lines(html.get_content()) if html is not None and message.is_multipart() else None,
        }
        print("MESSAGE " + json.dumps(record), flush=True)
        return "250 Message accepted for delivery"


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user and auth_data.password == password
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return check


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth", nargs=2, metavar=("USER", "PASS"))
    parser.add_argument("--refuse")
    parser.add_argument("--tempfail", type=int, default=0)
    parser.add_argument("--silent", action="store_true")
    arguments = parser.parse_args()
    # Started from a test's worker thread, the sink inherits its blocked signals: let SIGTERM stop it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)

    if arguments.silent:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(f"SMTP sink listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
        connections = []
        while True:
            connection, _ = listener.accept()
            connections.append(connection)

    context = None
    if arguments.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*arguments.tls)
    options = {}
    if arguments.auth:
        options = {
            "authenticator": authenticator(arguments.auth[0].encode(), arguments.auth[1].encode()),
            "auth_required": True,
            "auth_require_tls": context is not None,
        }
    handler = Handler(arguments.refuse, arguments.tempfail)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def factory():
        return SMTP(
            handler, hostname="sink.test", tls_context=context, require_starttls=context is not None,
            decode_data=False, loop=loop, **options)

    server = loop.run_until_complete(loop.create_server(factory, host="127.0.0.1", port=0))
    print(f"SMTP sink listening on 127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(main())
