"""Signs in at Hearth's dev Apple in a real headless Chromium: opens the account chooser, presses "Hide my email"
on the account with EMAIL, and lets the form_post page (its own script) POST the answer to a local listener.

Usage: python apple_chooser.py BASE_URL EMAIL
Prints one JSON object: {"path": "<path the browser POSTed to>", "fields": {<the POSTed form fields>}}.
"""
import json
import sys
import urllib.parse

from selenium.webdriver.common.by import By

from browser import FormPostListener, chromium


def main():
    base, email = sys.argv[1:3]
    listener = FormPostListener()
    query = urllib.parse.urlencode({
        "response_type": "code id_token", "response_mode": "form_post", "client_id": "dev.hearth.portfolio",
        "redirect_uri": f"http://127.0.0.1:{listener.port}/apple/callback", "scope": "name email",
        "state": "browser-state", "nonce": "browser-nonce",
    })
    driver = chromium()
    try:
        driver.get(f"{base}/dev/apple/auth/authorize?{query}")
        row = driver.find_element(By.XPATH, f"//form[contains(@class, 'account')][contains(., '{email}')]")
        row.find_element(By.CSS_SELECTOR, "button[name='hide_my_email']").click()
        received = listener.wait("the form_post answer")
    finally:
        driver.quit()
        listener.close()
    print(json.dumps(received))


if __name__ == "__main__":
    main()
