// The C side of DarkModeKitGTK: GTK 4, libadwaita, and what Swift cannot import from them
// (macros, variadic functions) as small inline functions.
#ifndef DARKMODEKIT_CGTK_SHIM_H
#define DARKMODEKIT_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>

// libdispatch's main queue, as CoreFoundation's run loop drains it: its handle to watch, and the
// call that runs what is queued on it. Declared here because no public header has them.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline GType dm_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType dm_type_string(void) { return G_TYPE_STRING; }

/// `g_signal_connect`, a macro in C.
static inline gulong dm_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                        gpointer data, GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/// Sets a boolean property of an object (`g_object_set` is variadic).
static inline void dm_object_set_boolean(gpointer object, const char *name, gboolean value) {
  GValue holder = G_VALUE_INIT;
  g_value_init(&holder, G_TYPE_BOOLEAN);
  g_value_set_boolean(&holder, value);
  g_object_set_property(G_OBJECT(object), name, &holder);
  g_value_unset(&holder);
}

/// Reads a boolean property of an object.
static inline gboolean dm_object_get_boolean(gpointer object, const char *name) {
  GValue holder = G_VALUE_INIT;
  g_value_init(&holder, G_TYPE_BOOLEAN);
  g_object_get_property(G_OBJECT(object), name, &holder);
  gboolean value = g_value_get_boolean(&holder);
  g_value_unset(&holder);
  return value;
}

/// The object's reference count, for leak tests.
static inline guint dm_object_ref_count(gpointer object) { return G_OBJECT(object)->ref_count; }

#endif
