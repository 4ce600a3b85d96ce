/// Which signals to receive: a D-Bus match rule of type `signal`.
///
/// Unset fields match anything. The rule is sent to the bus with `AddMatch`, and applied again
/// locally so that each stream only sees its own signals.
///
/// ```swift
/// let rule = DBusMatchRule(
///   interface: "org.freedesktop.portal.Settings", member: "SettingChanged",
///   path: "/org/freedesktop/portal/desktop", arguments: [0: "org.freedesktop.appearance"])
/// ```
public struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
  /// The sender's bus name. Locally only a unique name (`:1.42`) or `org.freedesktop.DBus` can be
  /// compared, because signals carry the unique name; a well-known name is left to the bus.
  public var sender: String?
  /// The interface of the signal.
  public var interface: String?
  /// The signal name.
  public var member: String?
  /// The object path that emits the signal.
  public var path: String?
  /// String arguments that must match exactly, by index (`arg0`, `arg1`, … up to `arg63`).
  public var arguments: [Int: String]

  /// Creates a rule; fields left `nil` match anything.
  ///
  /// - Parameters:
  ///   - sender: The sender's bus name.
  ///   - interface: The interface of the signal.
  ///   - member: The signal name.
  ///   - path: The object path that emits the signal.
  ///   - arguments: String arguments that must be equal, keyed by index 0...63.
  public init(
    sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil,
    arguments: [Int: String] = [:]
  ) {
    self.sender = sender
    self.interface = interface
    self.member = member
    self.path = path
    self.arguments = arguments
  }

  /// The rule text for `AddMatch`, such as `type='signal',interface='a.b',member='C'`.
  public var description: String {
    var parts = ["type='signal'"]
    func add(_ key: String, _ value: String?) {
      guard let value else { return }
      // Inside quotes only an apostrophe needs care: close the quote, escape it, reopen.
      parts.append("\(key)='\(value.replacingApostrophes())'")
    }
    add("sender", sender)
    add("interface", interface)
    add("member", member)
    add("path", path)
    for index in arguments.keys.sorted() { add("arg\(index)", arguments[index]) }
    return parts.joined(separator: ",")
  }

  /// Checks the fields before the rule is sent.
  func validate() throws {
    var problems: [String?] = []
    if let sender { problems.append(DBusNames.busNameProblem(sender)) }
    if let interface { problems.append(DBusNames.interfaceProblem(interface)) }
    if let member { problems.append(DBusNames.memberProblem(member)) }
    if let path { problems.append(DBusNames.objectPathProblem(path)) }
    if let index = arguments.keys.first(where: { !(0...63).contains($0) }) {
      problems.append("match argument index \(index) is not in 0...63")
    }
    if let problem = problems.compactMap({ $0 }).first { throw DBusError.invalidValue(problem) }
  }

  /// Whether `message` is a signal this rule selects.
  func matches(_ message: DBusMessage) -> Bool {
    guard matchesHeader(message) else { return false }
    for (index, expected) in arguments {
      guard index < message.body.count, case .string(let actual) = message.body[index],
        actual == expected
      else { return false }
    }
    return true
  }

  /// Whether the header of `message` is one of a signal this rule may select: everything but the
  /// arguments, which are in the body.
  func matchesHeader(_ message: DBusMessage) -> Bool {
    guard message.type == .signal else { return false }
    if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus",
      message.sender != sender
    {
      return false
    }
    if let interface, message.interface != interface { return false }
    if let member, message.member != member { return false }
    if let path, message.path != path { return false }
    return true
  }
}

extension String {
  fileprivate func replacingApostrophes() -> String {
    split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
  }
}
