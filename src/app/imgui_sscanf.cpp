// The sscanf that Dear ImGui's sources call in the page (src/app/CMakeLists.txt renames it in
// imgui.cpp, imgui_tables.cpp and the OpenGL3 backend): a reader of literal text and %d only,
// enough for the backend's "#version %d" and "%d.%d"; any other conversion (the .ini settings
// reader's, never run: io.IniFilename = nullptr) stops the scan. libc's scanf (3.6 KB gzip) stays out.
#include <cctype>
#include <climits>
#include <cstdarg>

extern "C" int vramcalc_imgui_sscanf(const char* text, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int assigned = 0;
    for (const char* f = format; *f; ++f) {
        if (std::isspace(static_cast<unsigned char>(*f))) {
            while (std::isspace(static_cast<unsigned char>(*text))) ++text;
        } else if (f[0] == '%' && f[1] == 'd') {
            ++f;
            while (std::isspace(static_cast<unsigned char>(*text))) ++text;
            const bool negative = *text == '-';
            if (*text == '-' || *text == '+') ++text;
            if (!std::isdigit(static_cast<unsigned char>(*text))) break;
            long long value = 0;
            while (std::isdigit(static_cast<unsigned char>(*text)))
                value = value < INT_MAX ? value * 10 + (*text++ - '0') : (++text, value);
            value = negative ? -value : value;
            *va_arg(args, int*) = value > INT_MAX ? INT_MAX : value < INT_MIN ? INT_MIN : int(value);
            ++assigned;
        } else if (*f == '%' || *text++ != *f) {
            break;
        }
    }
    va_end(args);
    return assigned;
}
