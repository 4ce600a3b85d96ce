#!/usr/bin/python3
"""A hostile client of the session bus, for DarkModeKit's D-Bus tests: it sends one large message
to another connection, as any process on the bus can. Usage (with DBUS_SESSION_BUS_ADDRESS set):

  hostile_peer.py TARGET KIND SIZE

TARGET is the victim's unique name. KIND is `call` (a method call with an `ay` argument of SIZE
bytes, waiting for the answer) or `signal` (a signal with such an argument, sent to TARGET alone).
It prints "sent", then, for a call, "answered NAME" with the error name of the answer (or
"answered" for a plain return), and exits.
"""
import sys

from gi.repository import Gio, GLib

target, kind, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
payload = GLib.Variant.new_from_bytes(GLib.VariantType("ay"), GLib.Bytes.new(b"\x07" * size), True)
arguments = GLib.Variant.new_tuple(payload)
if kind == "call":
    print("sent", flush=True)
    try:
        bus.call_sync(target, "/x", "org.dmkit.Hostile", "Flood", arguments, None,
                      Gio.DBusCallFlags.NONE, 30000, None)
        print("answered", flush=True)
    except GLib.Error as error:
        print("answered", Gio.DBusError.get_remote_error(error) or error.message, flush=True)
else:
    bus.emit_signal(target, "/x", "org.dmkit.Hostile", "Flood", arguments)
    bus.flush_sync(None)
    print("sent", flush=True)
