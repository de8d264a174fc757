"""What the browser tests of the replay page share: opening pages, finding
elements, pressing keys, reading the page's state."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from referee.records import Match, Record, iter_records, loads_document

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"
ILLEGAL = ROOT / "examples" / "illegal-records"

#: One record of each game (tactics where a game has them), and the two kinds of match.
GAMES = [
    "schotten-totten/full-2024-tactics.json",
    "schotten-totten-2/full-tactics.json",
    "clans-and-glory/full-3-players.json",
]
MATCHES = ["schotten-totten/match-clanfehde.json", "schotten-totten-2/match-rache-tie.json"]


def load(name: str) -> Record | Match:
    path = RECORDS / name
    return loads_document(path.read_bytes(), str(path))


def bundled_games() -> list[Record]:
    games: list[Record] = []
    for path in sorted(RECORDS.rglob("*.json")):
        for item in iter_records(path):
            assert isinstance(item, Record | Match), item
            games.extend(item.games if isinstance(item, Match) else [item])
    return games


def open_html(
    browser: Any, tmp_path: Path, html: str, name: str = "page.html", hash: str = ""
) -> Path:
    page = tmp_path / name
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri() + (f"#{hash}" if hash else ""))
    return page


def css(browser: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, selector)


def css_all(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def press(browser: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    chain = ActionChains(browser)
    for _ in range(times):
        chain.send_keys(getattr(Keys, key))
    chain.perform()


def counter(browser: Any) -> int:
    """The position shown (the ply counter's number)."""
    return int(css(browser, ".ply-counter").get_attribute("data-ply"))


def board_text(browser: Any) -> str:
    return str(browser.execute_script("return document.querySelector('.board svg').textContent"))


def script_errors(browser: Any) -> list[str]:
    return [
        entry["message"]
        for entry in browser.get_log("browser")
        if entry.get("level") == "SEVERE" and "favicon" not in entry["message"]
    ]


def card_value_pixels(browser: Any, value_size: float) -> float:
    """How tall a card's value is drawn on screen: its font size times the
    board picture's scale."""
    scale = browser.execute_script(
        "var svg = document.querySelector('.board svg');"
        "return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
    )
    return float(scale) * value_size


_TOKEN = r"(?<![A-Za-z0-9_#-]){}(?![0-9A-Za-z_])"


def mentions(page: str, card: str) -> bool:
    """Whether ``page`` names ``card`` anywhere (as a word of its own)."""
    return re.search(_TOKEN.format(re.escape(card)), page) is not None
