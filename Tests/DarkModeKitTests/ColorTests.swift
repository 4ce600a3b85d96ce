import Testing

@testable import DarkModeKit

@Suite struct ColorTests {
  @Test(arguments: [
    ("#ffffff", DMColor(rgb: 0xFFFFFF)), ("#343434", DMColor(rgb: 0x343434)),
    ("#FaFaFa", DMColor(rgb: 0xFAFAFA)), ("0xaabbcc", DMColor(rgb: 0xAABBCC)),
    ("0XAABBCC", DMColor(rgb: 0xAABBCC)), ("#abc", DMColor(rgb: 0xAABBCC)),
    ("#11223380", DMColor(rgb: 0x112233, alpha: 128.0 / 255)),
    ("0x11223380", DMColor(rgb: 0x112233, alpha: 128.0 / 255)),
  ])
  func hexFormsParse(_ text: String, _ expected: DMColor) throws {
    #expect(try DMColor(hex: text) == expected)
  }

  @Test(arguments: [
    ("", 0, "\"\" is not a colour: the text is empty"),
    ("ffffff", 0, "\"ffffff\" is not a colour: a colour starts with \"#\" or \"0x\""),
    ("#12G", 3, "\"#12G\" is not a colour: \"G\" at offset 3 is not a hexadecimal digit"),
    (
      "#12345", 1,
      "\"#12345\" is not a colour: expected 3, 6 or 8 hexadecimal digits after \"#\", found 5"
    ),
    ("0xabc", 2, "\"0xabc\" is not a colour: expected 6 or 8 hexadecimal digits after \"0x\", found 3"),
    ("# ffffff", 1, "\"# ffffff\" is not a colour: \" \" at offset 1 is not a hexadecimal digit"),
    ("#ffé", 3, "\"#ffé\" is not a colour: \"é\" at offset 3 is not a hexadecimal digit"),
  ])
  func badHexSaysWhatIsWrong(_ text: String, _ offset: Int, _ message: String) {
    #expect {
      try DMColor(hex: text)
    } throws: { error in
      let colorError = error as? DMColorError
      return colorError?.description == message && colorError?.offset == offset && colorError?.token == text
        && error.localizedDescription == message
    }
  }

  /// Found by fuzzing: a combining mark after `#` or `x` joins the prefix's character, and the
  /// check used to skip that whole character, so `#\u{73D}FaFa` parsed as `#00FAFA`.
  @Test(arguments: [
    (
      "#\u{73D}FaFa", 0,
      "\"#\u{73D}FaFa\" is not a colour: \"#\u{73D}\" at offset 0 is not a hexadecimal digit"
    ),
    (
      "0x\u{301}abcde", 1,
      "\"0x\u{301}abcde\" is not a colour: \"x\u{301}\" at offset 1 is not a hexadecimal digit"
    ),
    (
      "#a\u{301}bc", 1, "\"#a\u{301}bc\" is not a colour: \"a\u{301}\" at offset 1 is not a hexadecimal digit"
    ),
  ])
  func combiningMarkIsNotAHexDigit(_ text: String, _ offset: Int, _ message: String) {
    #expect(DMColor.parseHex(Array(text.utf8)[...]) == nil)
    #expect {
      try DMColor(hex: text)
    } throws: { error in
      let colorError = error as? DMColorError
      return colorError?.description == message && colorError?.offset == offset && colorError?.token == text
        && error.localizedDescription == message
    }
  }

  @Test func hexStringIsUpperCaseWithAlphaOnlyWhenTranslucent() throws {
    #expect(DMColor(rgb: 0x0A84FF).hexString == "#0A84FF")
    #expect(DMColor(rgb: 0x0A84FF, alpha: 0.5).hexString == "#0A84FF80")
    #expect(try DMColor(hex: DMColor(rgb: 0x123456).hexString) == DMColor(rgb: 0x123456))
  }

  @Test func namedColoursHaveUIKitValues() {
    #expect(DMColor.darkGray.hexString == "#555555")
    #expect(DMColor.lightGray.hexString == "#AAAAAA")
    #expect(DMColor.gray.hexString == "#808080")
    #expect(DMColor.orange == DMColor(red: 1, green: 0.5, blue: 0))
    #expect(DMColor.purple == DMColor(red: 0.5, green: 0, blue: 0.5))
    #expect(DMColor.brown == DMColor(red: 0.6, green: 0.4, blue: 0.2))
    #expect(DMColor.clear.alpha == 0)
    #expect(DMColor.magenta.hexString == "#FF00FF")
    #expect(DMColor.cyan.hexString == "#00FFFF")
  }

  @Test func componentsAreClampedToTheUnitRange() {
    let color = DMColor(red: 2, green: -1, blue: .nan, alpha: 7)
    #expect(color == DMColor(red: 1, green: 0, blue: 0, alpha: 1))
  }

  @Test func hueSaturationBrightnessConvertsToRGB() {
    #expect(DMColor(hue: 0, saturation: 1, brightness: 1, alpha: 1).hexString == "#FF0000")
    #expect(DMColor(hue: 1.0 / 3, saturation: 1, brightness: 1, alpha: 1).hexString == "#00FF00")
    #expect(DMColor(hue: 2.0 / 3, saturation: 1, brightness: 1, alpha: 1).hexString == "#0000FF")
    #expect(DMColor(hue: 0.5, saturation: 0, brightness: 0.5, alpha: 1).hexString == "#808080")
  }
}
