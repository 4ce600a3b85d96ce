/// The text of `Docs/Examples/Palette.txt`, built in so that `dmkit demo` works from any directory.
///
/// A test checks that it is the same as the file; change both together.
enum BundledPalette {
  static let text = #"""
    // An app palette: a default theme in normal and high contrast (NORMAL and NIGHT, NORMAL:high and
    // NIGHT:high), a light-only SEPIA theme and a two-sided SOLARIZED theme (SOLARIZED:light and
    // SOLARIZED:dark). Every text colour passes WCAG AA (4.5:1) on the backgrounds it is used on, in
    // every theme, and AAA (7:1) in the high-contrast columns:
    //   dmkit lint Docs/Examples/Palette.txt --pair Text.Primary:Background \
    //     --pair Text.Secondary:Background --pair Text.Primary:Surface --pair Text.OnAccent:Accent \
    //     --pair Link:Background --pair Error:Background --strict
    NORMAL     NIGHT      SEPIA      SOLARIZED:light  SOLARIZED:dark  NORMAL:high  NIGHT:high
    #ffffff    #1c1c1e    #f4ecd8    #fdf6e3          #002b36         #ffffff      #000000     Background
    #f2f2f7    #2c2c2e    #eae0c8    #eee8d5          #073642         #ebebf0      #1c1c1e     Surface
    #ffffff    #3a3a3c    #fbf6ea    #fffaee          #0b3c49         #ffffff      #2c2c2e     Surface.Elevated
    #1c1c1e    #f2f2f7    #3b2f1e    #073642          #93a1a1         #000000      #ffffff     Text.Primary
    #5b5b61    #aeaeb2    #6b5a43    #586e75          #839496         #3a3a3c      #d1d1d6     Text.Secondary
    #ffffff    #ffffff    #fbf6ea    #fdf6e3          #fdf6e3         #ffffff      #ffffff     Text.OnAccent
    #0a60d0    #0a60d0    #8a4b14    #1f71ab          #1f71ab         #0952b2      #0952b2     Accent
    #0055c4    #64a8ff    #7a3e0c    #1e6ca3          #469fde         #004eb5      #7eb6ff     Link
    #c6c6c8    #48484a    #d3c4a2    #cfc7af          #2f5661         #6e6e73      #8e8e93     Border
    #e5e5ea    #38383a    #e2d6ba    #e4dcc5          #114551         #c6c6c8      #545458     Separator
    #1e7d34    #30d158    #3f6b22    #657400          #859900         #186329      #30d158     Success
    #a35200    #ffb340    #8a4b00    #896800          #b58900         #874400      #ffb340     Warning
    #c4271c    #ff6961    #a32a1c    #c82422          #e77270         #a72118      #ff8079     Error
    #00000080  #00000099  #3b2f1e66  #002b3666        #00000099       #000000b3    #000000cc   Scrim

    """#
}
