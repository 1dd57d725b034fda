"""What the browser tests share: Debian's headless Chromium under selenium, and a local listener that receives what a
page POSTs (a form_post or SAML HTTP-POST answer) the way an app's callback would."""
import http.server
import threading
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium():
    """A headless Chromium driven through Debian's chromedriver."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


class FormPostListener:
    """Listens on 127.0.0.1:`port` (0: any free port) and keeps the first form POSTed to it: its path and fields."""

    def __init__(self, port=0):
        self.received = {}
        self.arrived = threading.Event()
        listener = self

        class Callback(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                listener.received.update(path=self.path, fields=dict(urllib.parse.parse_qsl(body)))
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"signed in")
                listener.arrived.set()

            def log_message(self, *args):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", port), Callback)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, what):
        """The form received, or exits with `what` never arrived after 30 s."""
        if not self.arrived.wait(30):
            raise SystemExit(f"{what} never reached the listener")
        return self.received

    def close(self):
        self.server.shutdown()
