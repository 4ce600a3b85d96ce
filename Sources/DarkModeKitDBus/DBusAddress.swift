import DarkModeKitText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One entry of a D-Bus server address such as `unix:path=/run/user/1000/bus,guid=…`.
///
/// Parameter values are unescaped (`%2c` becomes `,`).
struct DBusAddress: Sendable, Hashable {
  /// The transport, such as `unix`.
  var transport: String
  /// The key-value parameters, unescaped.
  var parameters: [String: String]

  /// Parses a `;`-separated list of addresses.
  ///
  /// - Throws: ``DBusError/invalidAddress(address:reason:)`` for a missing transport, a parameter
  ///   without `=`, a repeated key or a bad `%` escape.
  static func parseList(_ text: String) throws -> [DBusAddress] {
    let entries = text.split(separator: ";", omittingEmptySubsequences: true)
    guard !entries.isEmpty else { throw DBusError.invalidAddress(address: text, reason: "it is empty") }
    return try entries.map { try parse(String($0)) }
  }

  private static func parse(_ text: String) throws -> DBusAddress {
    guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
      throw DBusError.invalidAddress(address: text, reason: "it has no \"transport:\" prefix")
    }
    var address = DBusAddress(transport: String(text[..<colon]), parameters: [:])
    let rest = text[text.index(after: colon)...]
    for pair in rest.split(separator: ",", omittingEmptySubsequences: true) {
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
        throw DBusError.invalidAddress(
          address: text, reason: "parameter \(ShownText.quoted(pair)) is not key=value")
      }
      let key = String(pair[..<equals])
      guard address.parameters[key] == nil else {
        throw DBusError.invalidAddress(
          address: text, reason: "parameter \(ShownText.quoted(key)) appears twice")
      }
      address.parameters[key] = try unescape(pair[pair.index(after: equals)...], in: text)
    }
    return address
  }

  private static func unescape(_ value: Substring, in text: String) throws -> String {
    var bytes: [UInt8] = []
    var iterator = value.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
      else {
        throw DBusError.invalidAddress(
          address: text, reason: "\"%\" in \(ShownText.quoted(value)) is not followed by two hex digits")
      }
      bytes.append(high << 4 | low)
    }
    guard let string = validatedUTF8(bytes), !bytes.contains(0) else {
      throw DBusError.invalidAddress(
        address: text, reason: "value \(ShownText.quoted(value)) is not valid UTF-8")
    }
    return string
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The session bus address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that
  /// socket exists.
  ///
  /// - Throws: ``DBusError/connectionFailed(address:reason:)`` when neither is available.
  static func sessionBus() throws -> String {
    if let value = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !value.isEmpty {
      return value
    }
    if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
      let path = runtime + "/bus"
      if access(path, F_OK) == 0 { return "unix:path=" + escape(path) }
    }
    throw DBusError.connectionFailed(
      address: "session bus",
      reason: "DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
  }

  /// Escapes a value for use in an address: every byte outside `[-0-9A-Za-z_/.\*]` becomes `%xx`.
  static func escape(_ value: String) -> String {
    var result = ""
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16)
        result += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return result
  }
}
