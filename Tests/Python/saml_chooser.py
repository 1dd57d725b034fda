"""Signs in at Hearth's dev SAML IdP in a real headless Chromium: opens AUTH_URI (the IdP's single sign-on URL with a
SAMLRequest, as createAuthUri answers it), adds an account with EMAIL and NAME on the chooser (or picks it when it
exists), and lets the HTTP-POST page (its own script) post the signed response to a listener on 127.0.0.1:PORT, the
request's assertion consumer service.

Usage: python saml_chooser.py AUTH_URI PORT EMAIL NAME
Prints one JSON object: {"chooser": <the chooser's heading>, "path": <the path posted to>, "fields": {<the fields>}}.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser import FormPostListener, chromium


def main():
    auth_uri, port, email, name = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    listener = FormPostListener(port)
    driver = chromium()
    try:
        driver.get(auth_uri)
        chooser = driver.find_element(By.TAG_NAME, "h1").text
        rows = driver.find_elements(By.XPATH, f"//form[contains(@class, 'account')][contains(., '{email}')]//button")
        if rows:
            rows[0].click()
        else:
            driver.find_element(By.ID, "email").send_keys(email)
            driver.find_element(By.ID, "name").send_keys(name)
            driver.find_element(By.CSS_SELECTOR, "#add button[type='submit']").click()
        received = listener.wait("the SAML response")
    finally:
        driver.quit()
        listener.close()
    print(json.dumps({"chooser": chooser, **received}))


if __name__ == "__main__":
    main()
