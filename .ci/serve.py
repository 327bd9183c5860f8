"""Static server for the deployable folder that sends the HTTP headers its `_headers` file lists
(the Netlify / Cloudflare Pages format: a path pattern, then indented "Name: value" lines; `*`
matches any characters, `:name` one path segment; a header named by several matching rules gets
their values joined with ", ", as those hosts do). `_headers` itself is not served.
Usage: python3 .ci/serve.py DIR [PORT] [ADDRESS]   (PORT 0: any free port; ADDRESS 127.0.0.1)
Prints "serving DIR at http://ADDRESS:PORT/" once it listens (tests read the port from it)."""
import functools
import http.server
import os
import re
import sys
import urllib.parse


def read_rules(path):
    """[(compiled pattern, [(name, value), ...]), ...] in file order."""
    rules = []
    if not os.path.isfile(path):
        return rules
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            if not line[0].isspace():
                pattern = ''.join('.*' if part == '*' else '[^/]+' if part.startswith(':') else re.escape(part)
                                  for part in re.split(r'(\*|:[A-Za-z_]\w*)', line.strip()) if part)
                rules.append((re.compile(pattern + r'\Z'), []))
            elif rules and ':' in line:
                name, value = line.strip().split(':', 1)
                rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(rules, path):
    headers = {}
    for pattern, lines in rules:
        if pattern.match(path):
            for name, value in lines:
                key = name.lower()
                headers[key] = (name, headers[key][1] + ', ' + value if key in headers else value)
    return list(headers.values())


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      '.wasm': 'application/wasm', '.mjs': 'text/javascript', '.js': 'text/javascript',
                      '.css': 'text/css', '.svg': 'image/svg+xml', '.ttf': 'font/ttf', '.ts': 'text/plain',
                      '.mts': 'text/plain'}

    def __init__(self, *args, rules=(), **kwargs):
        self.rules = rules
        super().__init__(*args, **kwargs)

    def send_head(self):
        if urllib.parse.urlsplit(self.path).path == '/_headers':
            self.send_error(404, 'File not found')
            return None
        return super().send_head()

    def end_headers(self):
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        for name, value in headers_for(self.rules, path):
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = os.path.abspath(sys.argv[1])
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    address = sys.argv[3] if len(sys.argv) > 3 else '127.0.0.1'
    rules = read_rules(os.path.join(directory, '_headers'))
    handler = functools.partial(Handler, directory=directory, rules=rules)
    server = http.server.ThreadingHTTPServer((address, port), handler)
    print(f'serving {directory} at http://{address}:{server.server_address[1]}/', flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == '__main__':
    main()
