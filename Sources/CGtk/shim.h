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

/// The marshaller of `dm_signal_connect_any`: calls the closure's handler with its data alone,
/// whatever the signal's parameters, and answers FALSE to a signal that returns a boolean (so
/// that GTK's own handling goes on, as `close-request` closes the window).
static void dm_marshal_any(GClosure *closure, GValue *return_value, guint n_params, const GValue *params,
                           gpointer hint, gpointer marshal_data) {
  (void)n_params; (void)params; (void)hint; (void)marshal_data;
  void (*handler)(gpointer) = (void (*)(gpointer))((GCClosure *)closure)->callback;
  handler(closure->data);
  if (return_value != NULL && G_VALUE_HOLDS_BOOLEAN(return_value)) g_value_set_boolean(return_value, FALSE);
}

/// Connects `handler(data)` to a signal of any parameters and return type; `destroy` releases
/// `data` with the connection.
static inline gulong dm_signal_connect_any(gpointer instance, const char *signal, void (*handler)(gpointer),
                                           gpointer data, GClosureNotify destroy) {
  GClosure *closure = g_cclosure_new(G_CALLBACK(handler), data, destroy);
  g_closure_set_marshal(closure, dm_marshal_any);
  return g_signal_connect_closure(instance, signal, closure, FALSE);
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
