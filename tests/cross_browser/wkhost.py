#!/usr/bin/python3
"""A window that is only a WebKitGTK web view, the browser WebKitWebDriver starts for the cross-browser
tests (its arguments: --automation, from the driver). MiniBrowser cannot be narrower than 447 px (its
header bar); here the window is the viewport, so a phone-sized one is possible.

Every document gets recorder.js first (a user script at document start), and WebKit writes console
messages to stdout (`CONSOLE JS ERROR ...`), which the driver's log keeps. Without a window manager
the X keyboard focus follows the pointer, so the window takes it whenever it is mapped or resized.
Runs on Debian's python3 with python3-gi and gir1.2-webkit2-4.1 (not the project's venv).
"""

from pathlib import Path

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gdk, Gtk, WebKit2  # noqa: E402

RECORDER = (Path(__file__).resolve().parent / "recorder.js").read_text(encoding="utf-8")
windows: list[Gtk.Window] = []


def take_focus(window: Gtk.Window, *_) -> bool:
    if window.get_window() is not None:
        window.get_window().focus(Gdk.CURRENT_TIME)
    return False


def closed(window: Gtk.Window) -> None:
    windows.remove(window)
    if not windows:
        Gtk.main_quit()


def new_view(context: WebKit2.WebContext) -> WebKit2.WebView:
    content = WebKit2.UserContentManager()
    content.add_script(WebKit2.UserScript(RECORDER, WebKit2.UserContentInjectedFrames.ALL_FRAMES,
                                          WebKit2.UserScriptInjectionTime.START, None, None))
    # Composited on the CPU: with no GPU, GL compositing through Mesa made frames 3-4x slower here.
    settings = WebKit2.Settings(enable_webgl=True, enable_write_console_messages_to_stdout=True,
                                hardware_acceleration_policy=WebKit2.HardwareAccelerationPolicy.NEVER)
    view = WebKit2.WebView(web_context=context, user_content_manager=content, settings=settings,
                           is_controlled_by_automation=True)
    window = Gtk.Window(decorated=False)
    window.set_default_size(1280, 800)
    window.add(view)
    window.connect("map-event", take_focus)
    window.connect("configure-event", take_focus)
    window.connect("destroy", closed)
    view.connect("close", lambda v: window.destroy())
    windows.append(window)
    window.show_all()
    return view


def automation_started(context: WebKit2.WebContext, session: WebKit2.AutomationSession) -> None:
    info = WebKit2.ApplicationInfo()
    info.set_name("wkhost")
    info.set_version(*(int(n) for n in (WebKit2.get_major_version(), WebKit2.get_minor_version(),
                                        WebKit2.get_micro_version())))
    session.set_application_info(info)
    session.connect("create-web-view", lambda s: new_view(context))


def main() -> None:
    context = WebKit2.WebContext.get_default()
    context.set_automation_allowed(True)
    context.connect("automation-started", automation_started)
    Gtk.main()


if __name__ == "__main__":
    main()
