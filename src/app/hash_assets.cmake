# Content-hashed file names for the page's assets, so hosts can let browsers keep them for a year:
# a changed file gets a new name, and only index.html / embed.html (small, revalidated) point to it.
# Run by CMake after the page is assembled in DIST (cmake -DDIST=... -DHEADERS_IN=... -P hash_assets.cmake):
#   vramcalc-app.wasm → vramcalc-app.<hash>.wasm, and the same for vramcalc-app.js (which names
#   the wasm), the fonts, style.css (which names the fonts), dom.js, main.js (which imports the app
#   and dom.js and fetches the fonts); references in index.html, embed.html, style.css, main.js and
#   vramcalc-app.js are rewritten; the unhashed
#   copies and stale hashed ones are removed.
# Writes DIST/_headers (the Netlify / Cloudflare Pages format): HEADERS_IN (web/_headers, the
# host's other headers, when it exists) followed by Cache-Control rules: hashed assets immutable
# for a year, the HTML pages and the stable names host pages load (vramcalc.mjs, vramcalc-wasm.*,
# the embed loader vramcalc-embed.js) revalidated on every load.
# The hash: the first 10 hex digits of the file's SHA-256 (after its own references are rewritten).
cmake_minimum_required(VERSION 3.20)
if(NOT DIST OR NOT IS_DIRECTORY "${DIST}")
  message(FATAL_ERROR "hash_assets.cmake: DIST must name the assembled page folder")
endif()

set(pages index.html embed.html)
set(hashed_names)

# hashed_copy(<name> <rewrite-list>): rewrites each "old=new" reference in DIST/<name>, stores it as
# <stem>.<hash>.<ext>, removes the plain copy; sets <name>_HASHED in the caller's scope.
function(hashed_copy name)
  set(path "${DIST}/${name}")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "hash_assets.cmake: ${path} is missing")
  endif()
  foreach(pair IN LISTS ARGN)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 from)
    list(GET pair 1 to)
    file(READ "${path}" text)
    set(before "${text}")
    foreach(quote "'" "\"")
      string(REPLACE "${quote}${from}${quote}" "${quote}${to}${quote}" text "${text}")
      string(REPLACE "${quote}./${from}${quote}" "${quote}./${to}${quote}" text "${text}")
    endforeach()
    if(text STREQUAL before)  # a reference in another form would load a stale or missing file
      message(FATAL_ERROR "hash_assets.cmake: ${name} has no quoted reference to ${from}")
    endif()
    file(WRITE "${path}" "${text}")
  endforeach()
  file(SHA256 "${path}" sum)
  string(SUBSTRING "${sum}" 0 10 sum)
  string(REGEX REPLACE "^(.*)\\.([^.]+)$" "\\1" stem "${name}")
  string(REGEX REPLACE "^(.*)\\.([^.]+)$" "\\2" ext "${name}")
  # Stale hashed copies of this file from earlier builds.
  file(GLOB stale "${DIST}/${stem}.??????????.${ext}")
  if(stale)
    file(REMOVE ${stale})
  endif()
  set(hashed "${stem}.${sum}.${ext}")
  file(RENAME "${path}" "${DIST}/${hashed}")
  set(${name}_HASHED "${hashed}" PARENT_SCOPE)
  set(hashed_names ${hashed_names} ${hashed} PARENT_SCOPE)
endfunction()

hashed_copy(vramcalc-app.wasm)
hashed_copy(vramcalc-app.js "vramcalc-app.wasm=${vramcalc-app.wasm_HASHED}")
hashed_copy(vramcalc-sans.ttf)
# The style sheet names the regular font (@font-face for the DOM layer's text).
hashed_copy(style.css "vramcalc-sans.ttf=${vramcalc-sans.ttf_HASHED}")
hashed_copy(dom.js)
hashed_copy(main.js
  "vramcalc-app.js=${vramcalc-app.js_HASHED}"
  "dom.js=${dom.js_HASHED}"
  "vramcalc-sans.ttf=${vramcalc-sans.ttf_HASHED}")

foreach(page IN LISTS pages)
  if(NOT EXISTS "${DIST}/${page}")
    continue()
  endif()
  file(READ "${DIST}/${page}" text)
  foreach(name vramcalc-app.wasm vramcalc-app.js vramcalc-sans.ttf style.css dom.js main.js)
    string(REPLACE "\"${name}\"" "\"${${name}_HASHED}\"" text "${text}")
  endforeach()
  file(WRITE "${DIST}/${page}" "${text}")
endforeach()

# _headers
set(headers "")
if(HEADERS_IN AND EXISTS "${HEADERS_IN}")
  file(READ "${HEADERS_IN}" headers)
  string(APPEND headers "\n")
endif()
string(APPEND headers "# Cache rules, written by src/app/hash_assets.cmake: content-hashed assets never change.\n")
foreach(name IN LISTS hashed_names)
  string(APPEND headers "/${name}\n  Cache-Control: public, max-age=31536000, immutable\n")
endforeach()
foreach(path / /index.html /embed.html /vramcalc.mjs /vramcalc-wasm.mjs /vramcalc-wasm.wasm /vramcalc-embed.js)
  string(APPEND headers "${path}\n  Cache-Control: no-cache\n")
endforeach()
file(WRITE "${DIST}/_headers" "${headers}")
