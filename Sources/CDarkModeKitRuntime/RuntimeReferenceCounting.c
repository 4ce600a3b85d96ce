#include "CDarkModeKitRuntime.h"

// Part of the Swift runtime's ABI (swift/Runtime/HeapObject.h), with the C calling convention.
extern bool swift_isDeallocating(void *object);
extern void *swift_tryRetain(void *object);

bool dm_object_is_deallocating(void *object) { return swift_isDeallocating(object); }

void *dm_object_try_retain(void *object) { return swift_tryRetain(object); }
