"""How a real headless Chromium reads URLs, and where it ends up when it follows links.

Usage: python browser_urls.py URLS_JSON [LINK ...]
URLS_JSON is a file holding a JSON array of URL strings. Prints one JSON object:
{"hosts": [<URL.host as Chromium's URL parser reads it, or null when it refuses the URL>, ...],
 "landed": [<location.href of the page each LINK ends on after its redirects>, ...]}.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

READ_HOST = """
try { return new URL(arguments[0]).host; } catch (error) { return null; }
"""


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        urls = json.load(file)
    links = sys.argv[2:]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    result = {}
    try:
        driver.set_page_load_timeout(30)
        driver.get("about:blank")
        result["hosts"] = [driver.execute_script(READ_HOST, url) for url in urls]
        landed = []
        for link in links:
            driver.get(link)
            landed.append(driver.execute_script("return location.href;"))
        result["landed"] = landed
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
