#include "CDarkModeKitRuntime.h"

// Part of the Swift runtime's ABI (swift/Runtime/HeapObject.h), with the C calling convention.
extern bool swift_isDeallocating(void *object);
extern void *swift_tryRetain(void *object);

// Hidden: the program's own, never another library's (nor one preloaded).
__attribute__((visibility("hidden"))) bool dm_object_is_deallocating(void *object) {
  return swift_isDeallocating(object);
}

__attribute__((visibility("hidden"))) void *dm_object_try_retain(void *object) {
  return swift_tryRetain(object);
}
