"""Drives Hearth's admin console in a real headless Chromium: signs in through the dev Google chooser (refused as a
non-administrator, let in as one), finds one user among many, edits its claims (an invalid set refused first),
revokes its sessions, disables it, removes its second factor, rotates the signing key, reads the audit log, opens a
tenant's users (read-only), turns anonymous sign-up off on the configuration page (a setting the config file locks
shown locked), and signs out. With CONSOLE_SCREENSHOTS=<dir> it also saves console-users.png, console-user.png, console-keys.png, console-audit.png, console-config.png.

Usage: python console_browser.py BASE_URL ADMIN_EMAIL OUTSIDER_EMAIL NEEDLE_EMAIL
Prints one JSON object of what the pages showed (the Swift test checks it).
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait


def main():
    base, admin, outsider, needle = sys.argv[1:5]
    shots = os.environ.get("CONSOLE_SCREENSHOTS")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    wait = WebDriverWait(driver, 20)
    facts = {}

    def element(css):
        return wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css)))

    def text(css):
        return element(css).text

    def replaced(page):
        """A wait condition: the document `page` belongs to has been replaced (Chromium reports a node of a replaced
        document as stale, or as not belonging to the document, depending on timing)."""
        def check(_):
            try:
                page.is_enabled()
                return False
            except WebDriverException:
                return True
        return check

    def click(css):
        """Clicks `css` and waits for the page it leads to."""
        page = driver.find_element(By.TAG_NAME, "html")
        element(css).click()
        wait.until(replaced(page))

    def shoot(name):
        if shots:
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(1280, max(700, min(height + 160, 1400)))
            driver.save_screenshot(os.path.join(shots, f"console-{name}.png"))
            driver.set_window_size(1280, 900)

    def overview():
        """What an overview page shows: its figures, and of the sign-in chart what a reader and a viewer get."""
        chart = element("svg#sign-ins")
        cells = driver.find_elements(By.CSS_SELECTOR, "#sign-ins-table tbody td")
        for summary in driver.find_elements(By.CSS_SELECTOR, "figure.chart summary"):
            summary.click()
        return {
            "heading": text("h1"),
            "figures": {e.get_attribute("id"): e.text for e in driver.find_elements(By.CSS_SELECTOR, ".stats dd")},
            "chart_role": chart.get_attribute("role"),
            "chart_name": chart.accessible_name,
            "chart_size": [chart.size["width"], chart.size["height"]],
            "bars": len(chart.find_elements(By.CSS_SELECTOR, "rect")),
            "legend": [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#sign-ins ~ .legend li")],
            "days": len(driver.find_elements(By.CSS_SELECTOR, "#sign-ins-table thead th")) - 1,
            "table_total": sum(int(cell.text) for cell in cells),
            "charts": [e.text for e in driver.find_elements(By.CSS_SELECTOR, "figure.chart figcaption")],
        }

    def choose(email):
        """On the dev Google chooser, picks the account with `email`."""
        row = wait.until(expected_conditions.element_to_be_clickable(
            (By.XPATH, f"//form[contains(@class, 'account')][contains(., '{email}')]//button[@type='submit']")))
        page = driver.find_element(By.TAG_NAME, "html")
        row.click()
        wait.until(replaced(page))

    def confirm(link):
        """Follows a change's link to its confirmation step, confirms, and returns the notice shown afterwards."""
        click(link)
        facts.setdefault("confirmations", []).append(text("h1"))
        click("#confirm")
        return text("p.status")

    try:
        driver.get(f"{base}/console/users")
        facts["before_sign_in"] = text("h1")
        click("#sign-in")
        choose(outsider)
        facts["outsider"] = text("h1") + ": " + text("p.alert")

        driver.get(f"{base}/console/users")
        click("#sign-in")
        choose(admin)
        wait.until(expected_conditions.url_contains("/console/users"))
        facts["signed_in_as"] = text("header .who span")
        facts["first_page_rows"] = len(driver.find_elements(By.CSS_SELECTOR, "#users tbody tr"))
        shoot("users")

        click("nav a[href='/console/home']")
        facts["home"] = overview()
        shoot("home")
        driver.get(f"{base}/console/users")

        element("#q").send_keys(needle)
        click("#search")
        rows = driver.find_elements(By.CSS_SELECTOR, "#users tbody tr")
        facts["search_rows"] = [row.text for row in rows]
        click("#users tbody tr a")
        facts["user_heading"] = text("h1")
        facts["factors_before"] = len(driver.find_elements(By.CSS_SELECTOR, "#factors tbody tr"))
        shoot("user")

        claims = element("#claims")
        claims.clear()
        claims.send_keys('{"sub": "someone-else"}')
        click("#save-claims")
        facts["invalid_claims"] = text("p.alert")
        facts["invalid_claims_kept"] = element("#claims").get_attribute("value")
        claims = element("#claims")
        claims.clear()
        claims.send_keys('{"tier": "gold"}')
        click("#save-claims")
        facts["claims_saved"] = text("p.status")

        facts["revoked"] = confirm("#revoke")
        facts["disabled"] = confirm("#disable")
        facts["state"] = text("#state")
        facts["factor_removed"] = confirm(".remove-factor")
        facts["factors_after"] = len(driver.find_elements(By.CSS_SELECTOR, "#factors tbody tr"))

        click("nav a[href='/console/keys']")
        facts["keys_before"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#keys tbody tr")]
        facts["rotated"] = confirm("#rotate")
        facts["keys_after"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#keys tbody tr")]
        shoot("keys")

        driver.get(f"{base}/console/users")
        element("#q").send_keys(needle)
        click("#search")
        click("#users tbody tr a")
        click("#user-audit")
        facts["audit_heading"] = text("h1")
        facts["audit_alert"] = " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "p.alert"))
        facts["needle_events"] = [
            {"kind": row.find_element(By.CSS_SELECTOR, ".kind").text, "actor": row.find_element(By.CSS_SELECTOR, ".actor").text}
            for row in driver.find_elements(By.CSS_SELECTOR, "#events tbody tr")
        ]
        if shots:
            driver.get(f"{base}/console/audit")
            element("h1")
        shoot("audit")
        driver.get(f"{base}/console/audit?kind=key_rotated")
        element("h1")
        facts["key_events"] = [row.find_element(By.CSS_SELECTOR, ".actor").text for row in driver.find_elements(By.CSS_SELECTOR, "#events tbody tr")]

        click("nav a[href='/console/tenants']")
        facts["tenant_rows"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#tenants tbody tr")]
        facts["tenant_created"] = text("#tenants tbody tr td:nth-child(4)")
        click("#tenants tbody tr a.overview")
        facts["tenant_home"] = overview()
        driver.back()
        element("#tenants")
        click("#tenants tbody tr a")
        facts["tenant_users_heading"] = text("h1")
        facts["tenant_user_rows"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#users tbody tr")]
        element("#q").send_keys(needle)
        click("#search")
        facts["tenant_search_rows"] = len(driver.find_elements(By.CSS_SELECTOR, "#users tbody tr"))
        click("#users tbody tr a")
        facts["tenant_user_scope"] = text("#scope")
        facts["tenant_user_steps"] = len(driver.find_elements(By.CSS_SELECTOR, "#revoke, #disable, #save-claims, .remove-factor"))
        driver.get(f"{base}/console/tenants/no-such-tenant/users")
        facts["missing_tenant"] = text("h1") + ": " + text("p.alert")

        click("nav a[href='/console/config']")
        facts["config_heading"] = text("h1")
        facts["config_nav_current"] = text("nav a[aria-current='page']")
        anonymous = element("#anonymous")
        facts["config_anonymous_before"] = anonymous.is_selected()
        link = element("#emailLink")
        facts["config_locked"] = {
            "enabled": link.is_enabled(), "described_by": link.get_attribute("aria-describedby"), "reason": text("#emailLink-lock"),
        }
        shoot("config")
        anonymous.click()
        click("#save-config")
        facts["config_saved"] = text("p.status")
        facts["config_url"] = driver.current_url
        facts["config_anonymous_after"] = element("#anonymous").is_selected()
        driver.get(f"{base}/console/audit?kind=project_config_updated")
        element("h1")
        facts["config_events"] = [row.find_element(By.CSS_SELECTOR, ".actor").text for row in driver.find_elements(By.CSS_SELECTOR, "#events tbody tr")]

        # A tenant's configuration: its own password policy, saved through the tenant API.
        click("nav a[href='/console/tenants']")
        click("#tenants tbody tr a.configuration")
        facts["tenant_config_heading"] = text("h1")
        facts["tenant_config_domains"] = len(driver.find_elements(By.CSS_SELECTOR, "#authorizedDomains"))
        facts["tenant_config_email_before"] = element("#email").is_selected()
        element("#email").click()
        Select(element("#passwordPolicy")).select_by_value("ENFORCE")
        length = element("#minLength")
        length.clear()
        length.send_keys("12")
        element("#uppercase").click()
        shoot("tenant-config")
        click("#save-config")
        facts["tenant_config_saved"] = text("p.status")
        facts["tenant_config_url"] = driver.current_url
        facts["tenant_config_min_after"] = element("#minLength").get_attribute("value")

        click("#sign-out")
        facts["signed_out"] = text("h1")
        driver.get(f"{base}/console/users")
        facts["after_sign_out"] = text("h1")
    except Exception as error:
        page = driver.find_elements(By.TAG_NAME, "body")
        alerts = " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "p.alert"))
        facts["error"] = f"{type(error).__name__}: {error} at {driver.current_url}: [{alerts}] {page[0].text[:600] if page else ''}"
    finally:
        driver.quit()
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
