"""One Chromium for every browser test of a process.

The `browser` and `page_for` fixtures are defined here, once: Playwright's sync API marks
its event loop as running between calls, so a second `sync_playwright()` in the same
process (a copy of the fixture in each sub-directory's conftest) fails. `live_server` is the
plain app; holder/conftest.py replaces it with one that offers Google Wallet.
"""

from tests.support.browser import browser, live_server, page_for  # noqa: F401
