#!/usr/bin/python3
"""A stand-in for org.freedesktop.portal.Desktop's Settings interface, for DarkModeKit's tests.

It shows what Debian's portal cannot: interface version 2 with ReadOne, the contrast key, unknown
values, a portal that never answers, one that leaves the bus, and one that answers malformed
replies. Usage (with DBUS_SESSION_BUS_ADDRESS set):

  test_portal.py [--version N] [--color-scheme N|absent] [--contrast N|absent]
                 [--gnome-high-contrast true|false|absent] [--reduced-motion N|absent]
                 [--gnome-animations true|false|absent] [--accent R,G,B|absent|string] [--mode MODE]

MODE is one of: normal, silent (never answers reads), malformed (answers reads with a string, and
ReadAll with every value a string), read-once-wrapped (answers Read with the value in one variant,
not in a variant held by a variant, as ReadOne does),
exit-after-read (leaves the bus once both settings were read).
It prints "ready" once it owns the name. org.dmkit.TestPortal.Set(s key, v value) changes an
appearance setting and emits SettingChanged; SetTimed(s key, v value) does the same and returns when
it emitted the signal (CLOCK_MONOTONIC, in nanoseconds), for latency measurements; SetIn(s namespace, s key, v value) one of any
namespace (GNOME's high-contrast is org.gnome.desktop.a11y.interface high-contrast); org.dmkit.TestPortal.SendBadSignal() emits a malformed one;
org.dmkit.TestPortal.Flood(u count) emits `count` changes as fast as it can: the contrast flipping
back and forth, then color-scheme "prefer dark" last. org.dmkit.TestPortal.Calls() lists the
Settings methods called so far, in order.
"""
import argparse
import sys
import time

from gi.repository import Gio, GLib

parser = argparse.ArgumentParser()
parser.add_argument("--version", type=int, default=2)
parser.add_argument("--color-scheme", default="0")
parser.add_argument("--contrast", default="0")
parser.add_argument("--gnome-high-contrast", default="absent")
parser.add_argument("--reduced-motion", default="absent")
parser.add_argument("--gnome-animations", default="absent")
parser.add_argument("--accent", default="absent")
parser.add_argument("--mode", default="normal")
options = parser.parse_args()

NAMESPACE = "org.freedesktop.appearance"
GNOME_A11Y = "org.gnome.desktop.a11y.interface"
values = {}
if options.color_scheme != "absent":
    values["color-scheme"] = GLib.Variant("u", int(options.color_scheme))
if options.contrast != "absent":
    values["contrast"] = GLib.Variant("u", int(options.contrast))
# Settings of other namespaces, by (namespace, key).
others = {}
if options.gnome_high_contrast != "absent":
    others[(GNOME_A11Y, "high-contrast")] = GLib.Variant("b", options.gnome_high_contrast == "true")
if options.reduced_motion != "absent":
    values["reduced-motion"] = GLib.Variant("u", int(options.reduced_motion))
if options.gnome_animations != "absent":
    others[("org.gnome.desktop.interface", "enable-animations")] = GLib.Variant(
        "b", options.gnome_animations == "true")
if options.accent == "string":
    values["accent-color"] = GLib.Variant("s", "blue")
elif options.accent != "absent":
    values["accent-color"] = GLib.Variant("(ddd)", tuple(float(part) for part in options.accent.split(",")))

# A malformed portal declares (and so may send) a string where a variant belongs.
OUT = "s" if options.mode == "malformed" else "v"
XML = """
<node>
  <interface name="org.freedesktop.portal.Settings">
    <method name="ReadAll"><arg type="as" direction="in"/><arg type="a{sa{sv}}" direction="out"/></method>
    <method name="Read"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="%s" direction="out"/></method>
    %s
    <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
    <property name="version" type="u" access="read"/>
  </interface>
  <interface name="org.dmkit.TestPortal">
    <method name="Set"><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
    <method name="SetTimed"><arg type="s" direction="in"/><arg type="v" direction="in"/><arg type="t" direction="out"/></method>
    <method name="SetIn"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
    <method name="SendBadSignal"/>
    <method name="Flood"><arg type="u" direction="in"/></method>
    <method name="Calls"><arg type="as" direction="out"/></method>
  </interface>
</node>
""" % (OUT, '<method name="ReadOne"><arg type="s" direction="in"/><arg type="s" direction="in"/>'
       '<arg type="%s" direction="out"/></method>' % OUT if options.version >= 2 else "")

loop = GLib.MainLoop()
reads = set()
held = []  # invocations never answered, kept alive so that no error reply goes out
calls = []  # the Settings methods called, in order


def emit(connection, key, value, namespace=NAMESPACE):
    connection.emit_signal(None, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                           "SettingChanged", GLib.Variant("(ssv)", (namespace, key, value)))


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if interface == "org.dmkit.TestPortal":
        if method == "Calls":
            invocation.return_value(GLib.Variant("(as)", (calls,)))
            return
        if method == "Flood":
            count = parameters.unpack()[0]
            invocation.return_value(None)
            # Contrast flips back and forth; then one last change, "prefer dark", marks the end:
            # a reader that sees dark has seen every change before it.
            for index in range(count - 1):
                value = GLib.Variant("u", index % 2)
                values["contrast"] = value
                emit(connection, "contrast", value)
            values["color-scheme"] = GLib.Variant("u", 1)
            emit(connection, "color-scheme", values["color-scheme"])
            connection.flush_sync(None)
            return
        if method == "SetIn":
            namespace, key = parameters.unpack()[0], parameters.unpack()[1]
            value = parameters.get_child_value(2).get_variant()
            if namespace == NAMESPACE:
                values[key] = value
            else:
                others[(namespace, key)] = value
            invocation.return_value(None)
            emit(connection, key, value, namespace)
            return
        if method == "Set":
            key, value = parameters.unpack()[0], parameters.get_child_value(1).get_variant()
            values[key] = value
            invocation.return_value(None)
            emit(connection, key, value)
        elif method == "SetTimed":
            key, value = parameters.unpack()[0], parameters.get_child_value(1).get_variant()
            values[key] = value
            emitted = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            emit(connection, key, value)
            connection.flush_sync(None)
            invocation.return_value(GLib.Variant("(t)", (emitted,)))
        else:
            invocation.return_value(None)
            connection.emit_signal(None, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                                   "SettingChanged", GLib.Variant("(s)", (NAMESPACE,)))
        return
    calls.append(method)
    if method == "ReadAll":
        if options.mode == "silent":
            held.append(invocation)
            return
        found = {}
        for namespace in parameters.unpack()[0]:
            if namespace == NAMESPACE:
                settings = dict(values)
            else:
                settings = {key: value for (name, key), value in others.items() if name == namespace}
            if options.mode == "malformed":
                settings = {key: GLib.Variant("s", "dark") for key in settings}
            if settings:
                found[namespace] = settings
        invocation.return_value(GLib.Variant("(a{sa{sv}})", (found,)))
        read(found.get(NAMESPACE, {}).keys())
        return
    namespace, key = parameters.unpack()
    if options.mode == "silent":
        held.append(invocation)
        return
    if namespace != NAMESPACE and (namespace, key) in others:
        value = others[(namespace, key)]
    elif namespace != NAMESPACE or key not in values:
        invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "Requested setting not found")
        return
    else:
        value = values[key]
    if options.mode == "malformed":
        invocation.return_value(GLib.Variant("(s)", ("dark",)))
    elif method == "Read" and options.mode != "read-once-wrapped":
        invocation.return_value(GLib.Variant("(v)", (GLib.Variant("v", value),)))
    else:
        invocation.return_value(GLib.Variant("(v)", (value,)))
    read([key])


def read(keys):
    """Counts the appearance settings read; an exit-after-read portal leaves once it read both."""
    reads.update(keys)
    if options.mode == "exit-after-read" and reads >= {"color-scheme", "contrast"} & set(values):
        GLib.timeout_add(50, loop.quit)


def on_get_property(connection, sender, path, interface, name):
    return GLib.Variant("u", options.version)


def on_bus(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    for info in node.interfaces:
        connection.register_object("/org/freedesktop/portal/desktop", info, on_call, on_get_property, None)


def on_name(connection, name):
    print("ready", flush=True)


def on_lost(connection, name):
    sys.exit(3)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE,
                 on_bus, on_name, on_lost)
loop.run()
