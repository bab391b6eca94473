# Summarise a report's DOM (as Chromium dumped it after loading) for the
# tests: one line per chart, series and marker, in document order:
#   chart ID | series ID NAME N DRAWN | marker ID X | note CHART | script
import html.parser
import sys


class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.chart = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg" and "chart" in cls:
            self.chart = a.get("id", "").removeprefix("chart-")
            print("chart", self.chart)
        elif tag == "g" and "series" in cls:
            print("series", self.chart, a.get("data-series", "").replace(" ", "_"), a.get("data-n"), a.get("data-drawn"))
        elif tag == "g" and "marker" in cls:
            print("marker", self.chart, a.get("data-x"))
        elif tag == "p" and "data-chart" in a:
            print("note", a["data-chart"])
        elif tag in ("script", "img", "link", "iframe", "object", "embed"):
            print("element", tag)


P().feed(open(sys.argv[1], encoding="utf-8", errors="strict").read())
