"""Look at the docs site as a reader does: headless Chromium at 1280 px, screenshots and checks.

    python scripts/screenshots.py                  # build the site, check it, PNGs into site-screenshots/
    python scripts/screenshots.py --out DIR --width 1280
    python scripts/screenshots.py --site DIR       # a site already built (mkdocs build --site-dir DIR)

It builds the site (`mkdocs build`), serves it on loopback and opens every page (or the ones
named) in Debian's `chromium` (`apt-get install chromium`), headless, at the given width. For each page it saves a screenshot and checks, in the browser's
own layout, that no table is wider than its column (a cut-off table scrolls sideways, hiding a
column) and which code blocks scroll; and it parses every Mermaid diagram of the site with
Mermaid itself. It exits 1 when a table is cut off or a diagram does not parse.

Material loads Mermaid from a CDN, which this machine cannot reach: the script uses a local
`mermaid.min.js` (`--mermaid FILE`, else the one `npm pack mermaid@11` fetches into
~/.cache/langchain-toolrouter/), added to its own copy of the site only. Without Chromium it
says so and exits 0: CI does not need it (scripts/check.sh does not run this).
"""

from __future__ import annotations

import argparse
import functools
import html
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "langchain-toolrouter"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Run in each page after it has laid out: what is wider than its column, written into the DOM
# for --dump-dom to carry out.
MEASURE = """
<script>
window.addEventListener("load", () => setTimeout(() => {
  const report = {tables: [], code: 0, codeLines: [], diagrams: 0, content: 0};
  const content = document.querySelector(".md-content__inner");
  const right = content ? content.getBoundingClientRect().right : innerWidth;
  report.content = content ? Math.round(content.getBoundingClientRect().width) : 0;
  for (const table of document.querySelectorAll(".md-typeset table")) {
    const cut = table.scrollWidth - table.clientWidth;
    const past = table.getBoundingClientRect().right - right;
    if (cut > 1 || past > 1) {
      const head = [...table.querySelectorAll("th")].map(th => th.textContent.trim());
      const where = table.closest(".doc-object, .md-content__inner");
      const name = where && where.querySelector(".doc-heading, h1");
      report.tables.push({columns: head, cut: Math.max(cut, past),
                          under: name ? name.textContent.trim().slice(0, 80) : ""});
    }
  }
  for (const code of document.querySelectorAll(".md-typeset pre > code")) {
    if (code.scrollWidth > code.clientWidth + 1) {
      report.code += 1;
      const line = code.textContent.split("\\n").reduce((a, b) => b.length > a.length ? b : a, "");
      report.codeLines.push(line.trim().slice(0, 100));
    }
  }
  report.diagrams = document.querySelectorAll("div.mermaid").length;
  document.documentElement.setAttribute("data-layout", JSON.stringify(report));
}, 1500));
</script>
"""

# A page that parses and renders each diagram of the site with Mermaid, and writes what failed.
CHECK_DIAGRAMS = """<!doctype html><html><head><meta charset="utf-8">
<script src="/_mermaid.min.js"></script></head><body>
<script id="sources" type="application/json">{sources}</script>
<script>
(async () => {{
  const sources = JSON.parse(document.getElementById("sources").textContent);
  mermaid.initialize({{startOnLoad: false}});
  const failed = [], widths = [];
  for (const [i, item] of sources.entries()) {{
    try {{
      await mermaid.parse(item.text);
      const {{svg}} = await mermaid.render("check" + i, item.text);
      const box = /viewBox="[-\\d.]+ [-\\d.]+ ([\\d.]+)/.exec(svg);
      widths.push({{page: item.page, first: item.text.split("\\n").find(l => l.trim() && !l.startsWith("%%")), width: box ? Math.round(+box[1]) : null}});
    }} catch (error) {{
      failed.push({{page: item.page, first: item.text.split("\\n")[0], error: String(error.message || error).slice(0, 300)}});
    }}
  }}
  document.documentElement.setAttribute("data-diagrams", JSON.stringify({{count: sources.length, failed, widths}}));
}})();
</script></body></html>
"""

_MERMAID_BLOCK = re.compile(r'<pre class="mermaid"><code>(.*?)</code></pre>', re.DOTALL)


def browser() -> str | None:
    """The Chromium on this machine, or None."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def mermaid_js(given: Path | None) -> Path | None:
    """A local mermaid.min.js: the one given, the cached one, or one fetched with npm."""
    if given is not None:
        return given if given.is_file() else None
    cached = CACHE / "mermaid.min.js"
    if cached.is_file():
        return cached
    npm = shutil.which("npm")
    if npm is None:
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        packed = subprocess.run(
            [npm, "pack", "mermaid@11", "--silent", "--pack-destination", folder],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        tarballs = list(Path(folder).glob("mermaid-*.tgz"))
        if packed.returncode != 0 or not tarballs:
            print(f"!! npm pack mermaid@11 failed: {packed.stderr.strip()[:300]}")
            return None
        with tarfile.open(tarballs[0]) as archive:
            member = archive.extractfile("package/dist/mermaid.min.js")
            if member is None:
                return None
            cached.write_bytes(member.read())
    return cached


def build(site: Path) -> None:
    """The site, built as CI builds it (strict)."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def pages_of(site: Path) -> list[str]:
    """Every page of the built site, as its URL path (`reference/session/`)."""
    return sorted(
        page.relative_to(site).as_posix().removesuffix("index.html")
        for page in site.rglob("index.html")
        if not page.relative_to(site).as_posix().startswith(("assets/", "search/"))
    )


def prepare(site: Path, mermaid: Path | None) -> list[dict[str, str]]:
    """Add the measuring script (and the local Mermaid) to every page; the diagrams' sources."""
    sources = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        relative = page.relative_to(site).as_posix()
        sources += [
            {"page": relative, "text": html.unescape(block)}
            for block in _MERMAID_BLOCK.findall(text)
        ]
        extra = MEASURE
        if mermaid is not None:
            extra = '<script src="/_mermaid.min.js"></script>' + extra
        page.write_text(text.replace("</head>", extra + "</head>", 1), encoding="utf-8")
    if mermaid is not None:
        shutil.copyfile(mermaid, site / "_mermaid.min.js")
        payload = json.dumps(sources).replace("</", "<\\/")
        (site / "_check_diagrams.html").write_text(
            CHECK_DIAGRAMS.format(sources=payload), encoding="utf-8"
        )
    return sources


def serve(site: Path) -> ThreadingHTTPServer:
    """The site on a free loopback port, in a thread."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def chromium(binary: str, *args: str) -> str:
    """Run headless Chromium with `args`; its standard output."""
    done = subprocess.run(
        [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--virtual-time-budget=15000",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    return done.stdout


def attribute(dom: str, name: str) -> Any:
    """The JSON an injected script left in the root element's `name` attribute, or None."""
    found = re.search(rf'{name}="([^"]*)"', dom)
    return json.loads(html.unescape(found.group(1))) if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site-screenshots")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=2000, help="of each screenshot")
    parser.add_argument("--site", type=Path, help="a built site to use (a copy is changed)")
    parser.add_argument("--mermaid", type=Path, help="a local mermaid.min.js")
    parser.add_argument("pages", nargs="*", help="only these pages (e.g. reference/session/)")
    args = parser.parse_args(argv)
    binary = browser()
    if binary is None:
        print("skipped: no Chromium on this machine (apt-get install chromium)")
        return 0
    mermaid = mermaid_js(args.mermaid)
    if mermaid is None:
        print("!! no local mermaid.min.js: diagrams are neither drawn nor checked")
    problems = 0
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        if args.site is not None:
            shutil.copytree(args.site, site)
        else:
            build(site)
        sources = prepare(site, mermaid)
        server = serve(site)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        args.out.mkdir(parents=True, exist_ok=True)
        try:
            if mermaid is not None:
                dom = chromium(binary, "--dump-dom", base + "_check_diagrams.html")
                checked = attribute(dom, "data-diagrams")
                if checked is None:
                    print("!! the diagram check did not finish")
                    problems += 1
                else:
                    print(
                        f"diagrams: {checked['count']} parsed and rendered, {len(checked['failed'])} failed"
                    )
                    for drawn in checked["widths"]:
                        print(f"  {drawn['page']:40} {drawn['first']:18} {drawn['width']} px wide")
                    for failure in checked["failed"]:
                        problems += 1
                        print(f"  !! {failure['page']}: {failure['first']!r}: {failure['error']}")
            print(
                f"{'page':40} {'column px':>9} {'tables cut':>10} {'code scrolling':>14} "
                f"{'diagrams':>8}"
            )
            for page in args.pages or pages_of(site):
                url = base + page
                size = f"--window-size={args.width},{args.height}"
                picture = args.out / (page.strip("/").replace("/", "_") + ".png")
                chromium(binary, size, f"--screenshot={picture}", url)
                report = attribute(chromium(binary, size, "--dump-dom", url), "data-layout")
                if report is None:
                    print(f"{page:40} !! not measured (the page did not finish loading)")
                    problems += 1
                    continue
                print(
                    f"{page:40} {report['content']:>9} {len(report['tables']):>10} "
                    f"{report['code']:>14} {report['diagrams']:>8}"
                )
                for table in report["tables"]:
                    problems += 1
                    print(
                        f"  !! a table under {table['under']!r} ({', '.join(table['columns'])}) is cut by {table['cut']:.0f} px"
                    )
                for line in report["codeLines"]:
                    print(f"  .. scrolls: {line}")
        finally:
            server.shutdown()
    print(f"screenshots in {args.out} ({len(sources)} diagrams in the site)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
