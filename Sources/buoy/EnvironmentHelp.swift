/// Every environment variable buoy reads, written once for `--help` and the man pages:
/// tools/gen-man.py turns the block that starts with "ENVIRONMENT" into an ENVIRONMENT section.
/// (The libraries read none: the CLI passes what these say to them as values.)
enum EnvironmentHelp {
    static let entries: [(name: String, text: String)] = [
        ("BUOY_FONT_DIRS", "Colon-separated directories searched for the fonts text layers\nand the status line name, before /usr/local/share/fonts and\n/usr/share/fonts."),
        ("BUOY_CACHE_DIR", "Where animations given as URLs are cached (buoy cache). Default:\n/var/cache/buoy for root, else $XDG_CACHE_HOME/buoy, else\n$HOME/.cache/buoy."),
        ("BUOY_DRM_LEGACY", "Set (to anything): DRM uses the legacy modeset and page flips\nwhere the driver offers atomic ones."),
        ("XDG_CACHE_HOME, HOME", "The cache's default place, as above."),
        ("SSL_CERT_FILE, CURL_CA_BUNDLE", "The certificate authorities https trusts without --ca-file\n(the first set of the two); else the system's."),
        ("NOTIFY_SOCKET", "Set by systemd for a Type=notify unit: buoy run sends READY=1\nthere once the display, the control socket and the psplash FIFO\nare open, and STOPPING=1 at its end."),
        ("http_proxy, https_proxy, all_proxy, no_proxy", "Read by libcurl for the downloads."),
        ("BUOY_LIBCURL", "The libcurl a download opens (dlopen) instead of libcurl.so.4;\ncommands that do not download never open one."),
        ("BUOY_LIBFREETYPE, BUOY_LIBHARFBUZZ, BUOY_LIBFONTCONFIG, BUOY_LIBFRIBIDI",
         "The text libraries opened (dlopen) when text is first drawn, instead of\nlibfreetype.so.6, libharfbuzz.so.0, libfontconfig.so.1 and libfribidi.so.0;\nanimations without text never open them."),
    ]

    static var text: String {
        "ENVIRONMENT\n" + entries.map { entry in
            "  " + entry.name + "\n" + entry.text.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
