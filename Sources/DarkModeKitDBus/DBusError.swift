import DarkModeKitText
import Foundation

/// An error from the D-Bus client: a remote error reply, a timeout, a lost connection, or input
/// that breaks the wire format.
///
/// Every case has a ``description`` that names what went wrong and where.
public enum DBusError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The peer answered a method call with an error reply.
  ///
  /// - Parameters:
  ///   - name: The D-Bus error name, such as `org.freedesktop.DBus.Error.UnknownMethod`.
  ///   - message: The human-readable message the error carried, if any.
  case remote(name: String, message: String?)
  /// No reply arrived in time.
  ///
  /// - Parameter operation: What timed out, such as `call org.freedesktop.DBus.GetId`.
  case timedOut(operation: String)
  /// The connection is closed or was lost; pending calls and signal streams end with this.
  ///
  /// - Parameter reason: Why, such as `closed` or `the bus closed the connection`.
  case disconnected(reason: String)
  /// No connection could be made to any of the addresses.
  ///
  /// - Parameters:
  ///   - address: The address that was tried.
  ///   - reason: Why it failed, such as `connection refused`.
  case connectionFailed(address: String, reason: String)
  /// The bus rejected the SASL authentication or answered it in an unexpected way.
  case authenticationFailed(reason: String)
  /// A bus address string could not be understood.
  ///
  /// - Parameters:
  ///   - address: The address text.
  ///   - reason: What is wrong with it.
  case invalidAddress(address: String, reason: String)
  /// A type signature breaks the rules of the specification.
  ///
  /// - Parameters:
  ///   - signature: The signature text.
  ///   - reason: What is wrong, naming the byte offset.
  case invalidSignature(String, reason: String)
  /// A received message is malformed.
  ///
  /// - Parameters:
  ///   - offset: The byte offset in the message where the problem was found.
  ///   - reason: What is wrong there.
  case malformedMessage(offset: Int, reason: String)
  /// A value or message to send breaks the rules, such as an array element of the wrong type or
  /// an invalid object path.
  case invalidValue(String)
  /// A received message is larger than the connection accepts; it was dropped unread.
  ///
  /// - Parameters:
  ///   - length: The message's length in bytes.
  ///   - limit: The connection's limit (``DBusConnection/maximumMessageLength``).
  case messageTooLarge(length: Int, limit: Int)

  /// The D-Bus error name of a ``remote(name:message:)`` error, else `nil`.
  public var remoteName: String? {
    if case .remote(let name, _) = self { name } else { nil }
  }

  /// A readable explanation naming the field, offset or address involved.
  public var description: String {
    switch self {
    case .remote(let name, let message):
      // The peer's words: escaped, so that they cannot reach a terminal as a command.
      if let message, !message.isEmpty {
        "\(ShownText.escaped(name, limit: 255)): \(ShownText.quoted(message, limit: 200))"
      } else {
        ShownText.escaped(name, limit: 255)
      }
    case .timedOut(let operation):
      "D-Bus \(operation) timed out"
    case .disconnected(let reason):
      "D-Bus connection lost: \(reason)"
    case .connectionFailed(let address, let reason):
      "cannot connect to D-Bus at \(ShownText.quoted(address, limit: 512)): \(reason)"
    case .authenticationFailed(let reason):
      "D-Bus authentication failed: \(reason)"
    case .invalidAddress(let address, let reason):
      "invalid D-Bus address \(ShownText.quoted(address, limit: 512)): \(reason)"
    case .invalidSignature(let signature, let reason):
      "invalid D-Bus signature \(ShownText.quoted(signature)): \(reason)"
    case .malformedMessage(let offset, let reason):
      "malformed D-Bus message at offset \(offset): \(reason)"
    case .invalidValue(let reason):
      "invalid D-Bus value: \(reason)"
    case .messageTooLarge(let length, let limit):
      "a D-Bus message of \(length) bytes is over the limit of \(limit) bytes; it was dropped"
    }
  }
}

extension DBusError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` shows it.
  public var errorDescription: String? { description }
}
