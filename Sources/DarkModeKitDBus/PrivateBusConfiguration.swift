/// The configuration of a private session bus for measurements and tests: it listens at one
/// address, lets anyone own any name and send anywhere, and lets every client see every message.
package enum PrivateBusConfiguration {
  /// The configuration file's text for a bus that listens at `address` (`unix:path=…`).
  package static func text(listeningAt address: String) -> String {
    """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>\(address)</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """
  }
}
