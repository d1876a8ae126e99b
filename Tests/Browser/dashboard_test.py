#!/usr/bin/env python3
"""Drives the Herald dashboard in headless Chromium (Selenium) against a real Herald process.

Started by `DashboardBrowserTests` (swift test), which runs Herald with APNs/FCM stand-ins and
passes everything through the environment:

  HERALD_URL, HERALD_API_KEY       the server and an app key to sign in with
  USER_UID, USER_TOKEN             a user and one of their session tokens (for the API calls a
                                   device would make: registering a token, reading the feed)
  APNS_TOKEN                       a device token the APNs stand-in accepts
  SA_FILE, P8_FILE, RSA_FILE       service-account JSON, the .p8 the stand-in trusts, a wrong key
  EXPIRED_P12, P12_PASSWORD        an expired APNs certificate
  SCREENSHOTS                      where to save a screenshot of every page

Exit status 0 when every step passed; the failing step's screenshot is saved as `failure.png`.
"""
import json
import os
import pathlib
import re
import shutil
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

URL = os.environ["HERALD_URL"].rstrip("/")
API_KEY = os.environ["HERALD_API_KEY"]
USER_UID = os.environ["USER_UID"]
USER_TOKEN = os.environ["USER_TOKEN"]
APNS_TOKEN = os.environ["APNS_TOKEN"]
SHOTS = pathlib.Path(os.environ.get("SCREENSHOTS", "dashboard-screenshots"))
SHOTS.mkdir(parents=True, exist_ok=True)

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000",
                 "--force-prefers-reduced-motion"]:
    options.add_argument(argument)
for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]:
    if os.path.exists(candidate):
        options.binary_location = candidate
        break
service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
driver = webdriver.Chrome(options=options, service=service)
wait = WebDriverWait(driver, 30)
counter = [0]


def shot(name):
    counter[0] += 1
    driver.save_screenshot(str(SHOTS / f"{counter[0]:02d}-{name}.png"))
    no_false_alarms(name)


def no_false_alarms(name):
    """No page shows the word nil (an absent value printed), and no alert is empty."""
    body = driver.find_element(By.TAG_NAME, "body").text
    check(re.search(r"\bnil\b", body) is None, f"{name}: the page shows 'nil'")
    for alert in driver.find_elements(By.CSS_SELECTOR, "[role=alert]"):
        text = alert.get_attribute("textContent").strip()
        check(text and text != "nil", f"{name}: an alert with nothing in it")


def no_alerts(name):
    """A page nothing went wrong on: no alert, no field marked invalid."""
    check(not driver.find_elements(By.CSS_SELECTOR, "[role=alert]"), f"{name}: an alert that nothing caused")
    check(not driver.find_elements(By.CSS_SELECTOR, "[aria-invalid=true]"), f"{name}: a field marked invalid before anything was typed")


def check(condition, message):
    if not condition:
        driver.save_screenshot(str(SHOTS / "failure.png"))
        raise AssertionError(message)


def step(title):
    print(f"· {title}", flush=True)


def go(path):
    driver.get(URL + path)
    return wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1")))


def by_id(element_id):
    return wait.until(EC.presence_of_element_located((By.ID, element_id)))


def text_of(element_id):
    return driver.find_element(By.ID, element_id).text.strip()


def h1():
    return driver.find_element(By.TAG_NAME, "h1").text.strip()


def fill(element_id, value):
    field = by_id(element_id)
    field.clear()
    field.send_keys(value)


def replaced(old):
    """True once `old` left the document. Chromium reports a node of a page being torn down either as
    stale or, in the instant between, as an inspector error ("does not belong to the document"):
    both mean the page was replaced (selenium's staleness_of knows only the first)."""
    def predicate(_):
        try:
            old.is_enabled()
            return False
        except WebDriverException:
            return True
    return predicate


def heading(text):
    """True once the page's h1 holds `text`. Right after a click that leaves the page, the h1 found
    may be the old page's being torn down: read as not yet (selenium's text_to_be_present_in_element
    stops at the inspector error instead)."""
    def predicate(_):
        try:
            return text in driver.find_element(By.TAG_NAME, "h1").text
        except WebDriverException:
            return False
    return predicate


def submit(form_selector="main form button[type=submit]"):
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, form_selector).click()
    wait.until(replaced(old))
    wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1")))


def notice():
    found = driver.find_elements(By.CSS_SELECTOR, ".notice")
    return found[0].text if found else ""


def api(method, path, bearer, body=None):
    request = urllib.request.Request(URL + path, method=method, headers={"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"},
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
        return json.loads(text) if text else {}


def fits_phone_width():
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


try:
    step("signing in: the key is asked for, a wrong key is refused, the skip link comes first")
    go("/dashboard")
    check(h1() == "Sign in", f"not sent to sign in: {h1()}")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    check(driver.switch_to.active_element.text == "Skip to content", "the first Tab does not reach the skip link")
    shot("sign-in")
    no_alerts("sign-in")
    fill("apiKey", "hk_not_a_real_key")
    submit()
    check("That API key is not valid." in driver.page_source, "a wrong key was not refused")
    check(by_id("apiKey").get_attribute("aria-invalid") == "true", "the key field is not marked invalid")
    fill("apiKey", API_KEY)
    submit()
    check(h1() == "Overview", f"signed in to {h1()}")
    shot("overview-empty")

    step("adding an FCM provider: bad JSON is refused and kept, the uploaded file is taken")
    go("/dashboard/providers")
    shot("providers-empty")
    driver.find_element(By.LINK_TEXT, "Firebase Cloud Messaging").click()
    wait.until(heading("Add Firebase"))
    fill("providerId", "fcm")
    fill("serviceAccount", '{"type": "service_account",')
    submit()
    check(by_id("serviceAccount-error").is_displayed() and "not valid JSON" in text_of("serviceAccount-error"), "bad JSON not refused at its field")
    check(by_id("serviceAccount").get_attribute("value") == '{"type": "service_account",', "the typed JSON was lost")
    shot("fcm-bad-json")
    by_id("serviceAccount").clear()
    by_id("serviceAccountFile").send_keys(os.environ["SA_FILE"])
    submit()
    check(h1() == "Provider fcm" and "Provider added." in notice(), f"FCM provider not added: {h1()} {notice()}")
    shot("fcm-added")

    step("adding an APNs .p8 provider: a key of the wrong type is refused, the .p8 is taken")
    go("/dashboard/providers/new?kind=apns")
    fill("providerId", "apns")
    fill("keyId", "ABC123DEFG")
    fill("teamId", "DEF123GHIJ")
    fill("bundleId", "com.acme.app")
    by_id("privateKeyFile").send_keys(os.environ["RSA_FILE"])
    submit()
    check(by_id("privateKey-error").is_displayed(), "an RSA key was accepted as a .p8")
    check(by_id("keyId").get_attribute("value") == "ABC123DEFG", "the key id typed was lost")
    shot("apns-wrong-key")
    by_id("privateKeyFile").send_keys(os.environ["P8_FILE"])
    submit()
    check(h1() == "Provider apns" and "Provider added." in notice(), f"APNs provider not added: {h1()} {notice()}")
    shot("apns-added")

    step("an expired .p12 and an http webhook are refused next to their fields")
    go("/dashboard/providers/new?kind=apns")
    fill("providerId", "apns-cert")
    by_id("auth-certificate").click()
    wait.until(lambda d: d.find_element(By.ID, "p12File").is_displayed())
    check(not driver.find_element(By.ID, "keyId").is_displayed(), "token fields still shown for certificate auth")
    by_id("p12File").send_keys(os.environ["EXPIRED_P12"])
    fill("password", os.environ["P12_PASSWORD"])
    fill("bundleId", "com.acme.app")
    submit()
    check("expired" in text_of("p12-error"), f"an expired certificate was not refused: {driver.page_source[:300]}")
    check(by_id("bundleId").get_attribute("value") == "com.acme.app", "the bundle id typed was lost")
    shot("apns-expired-certificate")
    go("/dashboard/providers/new?kind=custom")
    fill("url", "http://hooks.example.com/push")
    fill("basicAuthUsername", "herald")
    submit()
    check(by_id("url-error").is_displayed(), "an http webhook was accepted")
    check(by_id("url").get_attribute("value") == "http://hooks.example.com/push", "the URL typed was lost")
    shot("webhook-http-refused")
    go("/dashboard/providers")
    check("acme-chat-app" in driver.page_source and "ABC123DEFG" in driver.page_source, "the providers' facts are not listed")
    check("PRIVATE KEY" not in driver.page_source, "a private key is shown")
    shot("providers")
    no_alerts("providers: both are healthy")
    check("Set aside" not in driver.page_source, "a healthy provider is shown as set aside")
    go("/dashboard/providers/apns")
    no_alerts("a healthy provider's page")

    step("a test push reaches the APNs stand-in and the verdict is shown")
    go("/dashboard/providers/apns")
    fill("pushToken", APNS_TOKEN)
    Select(by_id("platform")).select_by_value("apns_ios_device")
    submit("form[action$='/test'] button[type=submit]")
    check(text_of("verdict").startswith("Provider's verdict: delivered"), f"verdict: {text_of('verdict')}")
    check("200" in text_of("verdict"), "the provider's status is not shown")
    shot("test-push-verdict")

    step("a device registers, a message goes out (through the API, as the apps would)")
    api("POST", "/v1/me/push-tokens", USER_TOKEN, {"pushToken": APNS_TOKEN, "platform": "apns_ios_device", "providerId": "apns"})
    posted = api("POST", "/v1/events", API_KEY, {"type": "message", "message": {"id": 42, "text": "Lunch?", "sender": "bob",
                                                                                "receiver": USER_UID, "receiverType": "user"}})
    event_id = posted["eventIds"][0]

    step("editing a template: the preview follows as you type, then it is saved")
    go("/dashboard/templates")
    shot("templates")
    go("/dashboard/templates?eventType=message&receiverType=user&locale=default")
    before = text_of("preview-title")
    title = by_id("title")
    title.clear()
    title.send_keys("New from {{sender.name}}!")
    wait.until(lambda d: d.find_element(By.ID, "preview-title").text.startswith("New from "))
    check(text_of("preview-title") != before, "the preview did not change")
    shot("template-live-preview")
    submit("button[value=save]")
    check("Template saved." in notice() and by_id("title").get_attribute("value") == "New from {{sender.name}}!", "template not saved")
    shot("template-saved")

    step("a card template: problems are shown at their JSON pointer, previews in light and dark")
    go("/dashboard/feed/templates/new")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".preview-light .card-canvas")) == 1, "no light preview")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".preview-dark .card-canvas")) == 1, "no dark preview")
    shot("card-template-preview")
    card = by_id("card")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", card,
                          '{"version": "1.0", "fallbackText": "Hi", "body": [{"type": "button", "id": "b", "label": "", "action": {"type": "openUrl", "url": "ftp://x"}}]}')
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".problems .pointer")) > 0)
    pointers = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".problems .pointer")]
    check(any(p.startswith("/body/0") for p in pointers), f"problems not at their pointers: {pointers}")
    shot("card-template-problems")

    step("a campaign: created, sent, and its stats move")
    go("/dashboard/campaigns/new")
    fill("name", "Spring sale")
    shot("campaign-new")
    submit()
    check(h1() == "Campaign Spring sale" and text_of("campaign-status") == "draft", f"campaign not created: {h1()}")
    check(text_of("stat-items") == "0", "a draft has items")
    shot("campaign-draft")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/send'] button").click()
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(1)
        go(driver.current_url.split("?")[0].replace(URL, ""))
        if text_of("campaign-status") == "sent" and int(text_of("stat-items")) > 0:
            break
    check(text_of("campaign-status") == "sent", f"campaign status {text_of('campaign-status')}")
    items = int(text_of("stat-items"))
    check(items >= 2, f"items created: {items}")
    shot("campaign-sent")
    feed = api("GET", "/v1/me/feed", USER_TOKEN)
    check(len(feed["data"]) >= 1, "the user's feed is empty")
    item = feed["data"][0]
    api("POST", f"/v1/me/feed/{item['id']}/read", USER_TOKEN)
    go(driver.current_url.split("?")[0].replace(URL, ""))
    check(int(text_of("stat-read")) >= 1, f"the read did not show: {text_of('stat-read')}")
    shot("campaign-stats")

    step("looking up the user: sessions, tokens, and the deliveries with their reasons")
    go("/dashboard/users")
    fill("q", USER_UID)
    submit()
    shot("users-search")
    driver.find_element(By.LINK_TEXT, USER_UID).click()
    wait.until(heading(f"User {USER_UID}"))
    deadline = time.time() + 30
    while "delivered" not in driver.find_element(By.CSS_SELECTOR, "table.deliveries").text and time.time() < deadline:
        time.sleep(1)
        go(f"/dashboard/users/{USER_UID}")
    rows = driver.find_elements(By.CSS_SELECTOR, "table.deliveries tbody tr")
    check(any(event_id in r.text for r in rows), "the user's delivery of the message is not listed")
    check("apns_ios_device" in driver.page_source, "the user's token is not listed")
    shot("user")

    step("the delivery log and one event's recipients")
    go("/dashboard/events")
    shot("events")
    go(f"/dashboard/events/{event_id}")
    check(h1() == f"Event {event_id}" and USER_UID in driver.find_element(By.CSS_SELECTOR, "table.deliveries").text, "event page")
    shot("event")
    # An event for a group that does not exist reached nobody, and its page says why.
    nobody = api("POST", "/v1/events", API_KEY, {"type": "message", "message": {"id": 43, "text": "Anyone?", "sender": "bob",
                                                                               "receiver": "no-such-group", "receiverType": "group"}})["eventIds"][0]
    for _ in range(50):
        go(f"/dashboard/events/{nobody}")
        if driver.find_elements(By.ID, "event-reason"):
            break
        time.sleep(0.2)
    check("unknown_group" in text_of("event-reason"), "the page of an event that reached nobody does not say why")
    shot("event-nobody")

    step("overview, settings and feed pages")
    go("/dashboard")
    check(int(text_of("tile-sent")) >= 1, f"sent count {text_of('tile-sent')}")
    check(len(driver.find_elements(By.CSS_SELECTOR, "svg.chart rect.c-delivered")) >= 1, "the chart has no sent column")
    shot("overview")
    go("/dashboard/settings")
    fill("customJSON", '{"team": }')
    submit()
    check(by_id("customJSON-error").is_displayed() and by_id("customJSON").get_attribute("value") == '{"team": }', "bad custom JSON")
    shot("settings-refused")
    fill("customJSON", '{"team": "support"}')
    submit()
    check("Settings saved." in notice(), "settings not saved")
    shot("settings")
    go("/dashboard/feed")
    shot("feed")

    step("at phone width every page fits")
    driver.set_window_size(390, 844)
    for path in ["/dashboard", "/dashboard/providers/apns", "/dashboard/templates", f"/dashboard/users/{USER_UID}", "/dashboard/feed"]:
        go(path)
        check(fits_phone_width(), f"{path} is wider than a phone")
        shot("phone-" + (path.strip("/").replace("/", "-") or "overview"))
    driver.set_window_size(1280, 1000)

    step("every control has a label")
    for path in ["/dashboard/settings", "/dashboard/providers/new?kind=apns", "/dashboard/campaigns/new", "/dashboard/feed"]:
        go(path)
        unlabeled = driver.execute_script("""
            return [...document.querySelectorAll('main input:not([type=hidden]), main select, main textarea')]
              .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.name || e.id);
        """)
        check(not unlabeled, f"{path}: controls without a label: {unlabeled}")

    step("signing out")
    driver.find_element(By.CSS_SELECTOR, ".signout button").click()
    wait.until(heading("Sign in"))
    go("/dashboard/providers")
    check(h1() == "Sign in", "still signed in after signing out")
    print(f"dashboard browser test passed; {counter[0]} screenshots in {SHOTS}")
except (AssertionError, TimeoutException) as error:
    driver.save_screenshot(str(SHOTS / "failure.png"))
    print(f"FAILED: {error!r} at {driver.current_url}", file=sys.stderr)
    sys.exit(1)
finally:
    driver.quit()
