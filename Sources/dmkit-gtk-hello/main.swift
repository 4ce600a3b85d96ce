import DarkModeKit
import DarkModeKitGTK

// The app's colours by name: a light column and a dark one (Docs/ColorTableFormat.md). An app
// ships its table as a file and loads it with `DMColorTable.shared.reload(contentsOf:)`.
try DMColorTable.shared.reload(
  string: """
    NORMAL   NIGHT
    #f6f5f4  #1e1e2e  Surface
    #1c1c1e  #f2f2f7  Text.Primary
    """)

DMGTK.start()  // follows the desktop's light or dark setting, from the first frame

let window = DMGTKWindow(title: "Notes")
window.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))

let column = DMGTKBox(.vertical, spacing: 12)
column.margin = 24
let note = DMGTKLabel("Dark mode follows the desktop.")
note.dm.bind(\.foregroundColor, to: DMDynamicColor(key: "Text.Primary"))
column.append(note)
column.append(
  DMGTKButton("Dark") {
    DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: true)
  })
column.append(
  DMGTKButton("Follow the desktop") {
    DMTraitCollection.setOverride(DMTraitCollection(), animated: true)
  })
window.child = column  // in the window on screen, and in its traits
window.present()

DMGTK.run()  // until the window is closed
