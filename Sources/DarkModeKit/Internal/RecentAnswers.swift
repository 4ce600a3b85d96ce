/// A few answers found last, each under the identity of the object it was asked about and a key:
/// code that asks about the same object again and again (a key path written in an app's loop is
/// one object each time it runs) finds the answer by comparing identities, without hashing.
///
/// Each entry holds its object, so that no other object can take its identity while the entry
/// lasts. When the entries are full, the oldest goes; ``remember(_:for:key:)`` gives back the
/// entry let go of, for the caller to release after its access to the store ends (what the
/// object or the answer holds may run code that asks again).
struct RecentAnswers<Key: Equatable, Answer> {
  /// The identities of `objects`, in the same order: a search compares these plain integers, where
  /// reading each of `objects` would retain and release it.
  private var identities: [ObjectIdentifier] = []
  private var keys: [Key] = []
  private var answers: [Answer] = []
  private var objects: [AnyObject] = []
  private var next = 0
  private let limit: Int

  /// Makes an empty store that keeps at most `limit` answers.
  init(limit: Int) {
    precondition(limit > 0, "RecentAnswers keeps at least one answer")
    self.limit = limit
  }

  /// The answer remembered for `object` under `key`, if it is still one of the last.
  func answer(for object: AnyObject, key: Key) -> Answer? {
    let identity = ObjectIdentifier(object)
    for index in identities.indices where identities[index] == identity && keys[index] == key {
      return answers[index]
    }
    return nil
  }

  /// Remembers `answer` for `object` under `key`, in place of the oldest answer when full.
  /// - Returns: The object, key and answer let go of, to release after the access to this store.
  mutating func remember(_ answer: Answer, for object: AnyObject, key: Key) -> (AnyObject, Key, Answer)? {
    guard identities.count == limit else {
      identities.append(ObjectIdentifier(object))
      keys.append(key)
      answers.append(answer)
      objects.append(object)
      return nil
    }
    let dropped = (objects[next], keys[next], answers[next])
    identities[next] = ObjectIdentifier(object)
    keys[next] = key
    answers[next] = answer
    objects[next] = object
    next = (next + 1) % limit
    return dropped
  }
}

/// Which of a type's properties a key path object was found to be, for the last few asked about
/// (``RecentAnswers`` compiled for that use, for toolkits of this package whose generic code
/// cannot have it compiled for them). A class, so that asking reads the answers in place.
package final class RecentPropertyIndices {
  private var answers = RecentAnswers<ObjectIdentifier, Int?>(limit: 8)

  /// Makes an empty store.
  package init() {}

  /// `.some(index)` when `keyPath` was last found to be property `index` of `type` (`nil` for
  /// none of them); `nil` when it is not one of the last asked about.
  package func index(of keyPath: AnyKeyPath, in type: ObjectIdentifier) -> Int?? {
    answers.answer(for: keyPath, key: type)
  }

  /// Remembers that `keyPath` is property `index` of `type`.
  /// - Returns: What was let go of, to release after the access to this store.
  package func remember(_ index: Int?, of keyPath: AnyKeyPath, in type: ObjectIdentifier) -> (
    AnyObject, ObjectIdentifier, Int?
  )? {
    answers.remember(index, for: keyPath, key: type)
  }
}
