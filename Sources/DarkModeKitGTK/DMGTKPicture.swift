import CGtk
import DarkModeKit
import Foundation

/// An image GTK can show (a `GdkTexture`), loaded from a file.
///
/// Textures are immutable, so one can be shared across threads; the reference it holds is
/// released when the last `DMGTKTexture` goes.
public final class DMGTKTexture: @unchecked Sendable {
  // Safe: a GdkTexture never changes after it is made, and GObject reference counting is atomic.
  /// The texture.
  public let texture: OpaquePointer

  /// Takes over a texture reference.
  /// - Parameter texture: A `GdkTexture`, whose reference the new value releases when it goes.
  public init(taking texture: OpaquePointer) {
    self.texture = texture
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(texture))
  }

  /// The pixel width.
  public var width: Int32 { gdk_texture_get_width(texture) }
  /// The pixel height.
  public var height: Int32 { gdk_texture_get_height(texture) }

  /// Loads an image file (PNG, JPEG, TIFF, …), or `nil` when it cannot be read.
  /// - Parameter path: The file's path.
  /// - Returns: The texture, or `nil`.
  public static func load(path: String) -> DMGTKTexture? {
    var error: UnsafeMutablePointer<GError>?
    guard let texture = gdk_texture_new_from_filename(path, &error) else {
      if let error { g_error_free(error) }
      return nil
    }
    return DMGTKTexture(taking: texture)
  }

  /// A loader for `DMDynamicImage(names:loader:)`: names are files in `directory`, loaded the first
  /// time a theme shows them.
  ///
  /// ```swift
  /// let logo = DMDynamicImage(names: ["NORMAL": "logo.png", "NIGHT": "logo-night.png"],
  ///                           loader: DMGTKTexture.loader(directory: imagesURL))
  /// picture.dm.bind(\.texture, to: logo)
  /// ```
  /// - Parameter directory: The folder that holds the images.
  /// - Returns: The loader.
  public static func loader(directory: URL) -> @Sendable (String) -> DMGTKTexture? {
    { name in
      // A name is a file in the folder, never a path that leaves it.
      guard !name.isEmpty, !name.contains("/"), name != "..", name != "." else { return nil }
      return load(path: directory.appendingPathComponent(name).path)
    }
  }
}

/// A GTK picture showing a DarkModeKit image: bind ``texture`` to a `DMDynamicImage`.
@MainActor
open class DMGTKPicture: DMGTKWidget {
  /// The image shown, or `nil` for none.
  public var texture: DMGTKTexture? {
    didSet {
      guard texture !== oldValue else { return }
      gtk_picture_set_paintable(OpaquePointer(widget), texture?.texture)
    }
  }

  /// Creates an empty picture.
  public init() {
    super.init(gtk_picture_new()!)
  }
}
