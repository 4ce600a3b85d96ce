/// The text of `Docs/Examples/Palette.txt`, built in so that `dmkit demo` works from any directory.
///
/// A test checks that it is the same as the file; change both together.
enum BundledPalette {
  static let text = #"""
    // An app palette in three themes. Every text colour passes WCAG AA (4.5:1) on the backgrounds
    // it is used on, in every theme:
    //   dmkit lint Docs/Examples/Palette.txt --pair Text.Primary:Background \
    //     --pair Text.Secondary:Background --pair Text.Primary:Surface --pair Text.OnAccent:Accent \
    //     --pair Link:Background --pair Error:Background --strict
    NORMAL    NIGHT     SEPIA
    #ffffff   #1c1c1e   #f4ecd8   Background
    #f2f2f7   #2c2c2e   #eae0c8   Surface
    #ffffff   #3a3a3c   #fbf6ea   Surface.Elevated
    #1c1c1e   #f2f2f7   #3b2f1e   Text.Primary
    #5b5b61   #aeaeb2   #6b5a43   Text.Secondary
    #ffffff   #ffffff   #fbf6ea   Text.OnAccent
    #0a60d0   #0a60d0   #8a4b14   Accent
    #0055c4   #64a8ff   #7a3e0c   Link
    #c6c6c8   #48484a   #d3c4a2   Border
    #e5e5ea   #38383a   #e2d6ba   Separator
    #1e7d34   #30d158   #3f6b22   Success
    #a35200   #ffb340   #8a4b00   Warning
    #c4271c   #ff6961   #a32a1c   Error
    #00000080 #00000099 #3b2f1e66 Scrim

    """#
}
