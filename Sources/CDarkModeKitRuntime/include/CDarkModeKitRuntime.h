// The Swift runtime's reference counting of native objects, for DarkModeKit's UnownedObject.
//
// Swift reserves the runtime's own names for the calls the compiler makes, so DarkModeKit reaches
// the two functions it needs through these, which call them: bound when the program is linked,
// with the runtime shared or static.

#ifndef C_DARK_MODE_KIT_RUNTIME_H
#define C_DARK_MODE_KIT_RUNTIME_H

#include <stdbool.h>

#pragma clang assume_nonnull begin

/// Whether the native Swift object at `object` has begun, or finished, its deinitialization. The
/// caller keeps the object's memory (an unowned reference does).
__attribute__((visibility("hidden"))) bool dm_object_is_deallocating(void *object);

/// Retains the native Swift object at `object` and returns it, unless it has begun its
/// deinitialization: then NULL. The caller keeps the object's memory.
__attribute__((visibility("hidden"))) void *_Nullable dm_object_try_retain(void *object);

#pragma clang assume_nonnull end

#endif
