"""Signs in at Hearth's dev Apple in a real headless Chromium: opens the account chooser, presses "Hide my email"
on the account with EMAIL, and lets the form_post page (its own script) POST the answer to a local listener.

Usage: python apple_chooser.py BASE_URL EMAIL
Prints one JSON object: {"path": "<path the browser POSTed to>", "fields": {<the POSTed form fields>}}.
"""
import http.server
import json
import sys
import threading
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def main():
    base, email = sys.argv[1:3]
    received = {}
    arrived = threading.Event()

    class Callback(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
            received.update(path=self.path, fields=dict(urllib.parse.parse_qsl(body)))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"signed in")
            arrived.set()

        def log_message(self, *args):
            pass

    listener = http.server.HTTPServer(("127.0.0.1", 0), Callback)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    query = urllib.parse.urlencode({
        "response_type": "code id_token", "response_mode": "form_post", "client_id": "dev.hearth.portfolio",
        "redirect_uri": f"http://127.0.0.1:{listener.server_port}/apple/callback", "scope": "name email",
        "state": "browser-state", "nonce": "browser-nonce",
    })

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(30)
        driver.get(f"{base}/dev/apple/auth/authorize?{query}")
        row = driver.find_element(By.XPATH, f"//form[contains(@class, 'account')][contains(., '{email}')]")
        row.find_element(By.CSS_SELECTOR, "button[name='hide_my_email']").click()
        if not arrived.wait(30):
            raise SystemExit("the form_post answer never reached the listener")
    finally:
        driver.quit()
        listener.shutdown()
    print(json.dumps(received))


if __name__ == "__main__":
    main()
