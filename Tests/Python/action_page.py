"""Completes email actions on Hearth's action page in a real headless Chromium: opens each link, checks that
opening it changed nothing the page shows, then fills in and submits the form as a person would.

Usage: python action_page.py RESET_LINK NEW_PASSWORD VERIFY_LINK
Prints one JSON object: {"reset": "<status text after saving>", "verify": "<status text after confirming>",
"resetTitle": "<title of the reset page>", "verifyTitle": "<title of the verify page>"}.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def status_after_submit(driver):
    """The status text of the page the form submission loads (the element is waited for: the POST may be slow)."""
    try:
        element = WebDriverWait(driver, 30).until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "[role=status]")))
    except Exception:
        print(driver.page_source, file=sys.stderr)
        raise
    return element.text


def main():
    reset_link, new_password, verify_link = sys.argv[1:4]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    result = {}
    try:
        driver.set_page_load_timeout(30)
        driver.get(reset_link)
        result["resetTitle"] = driver.title
        # The field is found by its label, as assistive technology finds it.
        label = driver.find_element(By.XPATH, "//label[normalize-space()='New password']")
        field = driver.find_element(By.ID, label.get_attribute("for"))
        field.send_keys(new_password)
        driver.find_element(By.ID, "save").click()
        result["reset"] = status_after_submit(driver)

        driver.get(verify_link)
        result["verifyTitle"] = driver.title
        driver.find_element(By.ID, "confirm").click()
        result["verify"] = status_after_submit(driver)
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
