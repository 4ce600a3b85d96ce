// What the examples of DarkModeKitGTK's doc comments take as given: a window, a picture, a table.
// Compiled only where GTK's headers are; nothing here is run.

import DarkModeKit
import DarkModeKitGTK
import Foundation

@MainActor public let window = DMGTKWindow(title: "Example")
@MainActor public let picture = DMGTKPicture()
public let table = DMColorTable()
public let accent = DMDynamicColor(light: .blue, dark: .orange)
public let imagesURL = URL(filePath: "Images")
