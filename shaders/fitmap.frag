// Fit map: per-GPU memory / capacity over two axes, drawn from a float texture computed by the
// core (fit_grid_into). Texel (x, y) holds the ratio at xs[x], ys[y]; -1 marks an invalid layout.
// Fits (ratio ≤ 1): a calm ramp from deep blue (plenty of room) through green to amber at the
// limit. Does not fit (> 1): reds with diagonal stripes, darker the further over. Invalid: grey
// cross-hatch. The ratio = 1 boundary is an anti-aliased contour found here, per pixel: the
// fits/does-not-fit side is sampled around the pixel's footprint (fwidth) and the line is
// strongest where the sides are mixed, so it follows cell edges on discrete axes and the
// interpolated curve on dense ones alike.
uniform sampler2D u_grid;  // R32F, no filtering: read with texelFetch
uniform vec2 u_cells;      // grid size (columns, rows)
uniform vec2 u_smooth;     // per axis: 1 = dense numeric axis (interpolate), 0 = discrete cells
uniform float u_line_px;   // contour half-width in framebuffer pixels
uniform float u_scale;     // device pixel ratio (stripe spacing in CSS pixels)
// Colours from src/app/fitmap.hpp (one source with the legend): the fit ramp (rgb, position) for
// ratio ≤ 1, over capacity (at 1×, at 4× and beyond), invalid cells (hatch light, dark).
uniform vec4 u_ramp[4];
uniform vec3 u_over[2];
uniform vec3 u_invalid[2];

in vec2 v_uv;
out vec4 frag_color;

float cell(ivec2 c) {
    c = clamp(c, ivec2(0), ivec2(u_cells) - 1);
    return texelFetch(u_grid, c, 0).r;
}

// Ratio at grid position p (cell units, y up). Bilinear between cell centres along dense axes,
// nearest along discrete ones and next to invalid cells (which must not bleed into neighbours).
float ratio_at(vec2 p) {
    vec2 q = mix(floor(p), p - 0.5, u_smooth);
    ivec2 i = ivec2(floor(q));
    vec2 f = fract(q) * u_smooth;
    float a = cell(i), b = cell(i + ivec2(1, 0)), c = cell(i + ivec2(0, 1)), d = cell(i + ivec2(1, 1));
    if (min(min(a, b), min(c, d)) < 0.0) return cell(ivec2(floor(p)));
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

vec3 fit_colour(float r) {
    r = clamp(r, 0.0, 1.0);
    vec3 c = u_ramp[0].rgb;
    for (int i = 1; i < 4; ++i) {
        float a = u_ramp[i - 1].w, b = u_ramp[i].w;
        if (r >= a) c = mix(u_ramp[i - 1].rgb, u_ramp[i].rgb, clamp((r - a) / (b - a), 0.0, 1.0));
    }
    return c;
}

vec3 over_colour(float r) {
    // 1 → bright red, 4× capacity and beyond → dark wine (log scale).
    float t = clamp(log2(r) / 2.0, 0.0, 1.0);
    return mix(u_over[0], u_over[1], t);
}

void main() {
    vec2 p = v_uv * u_cells;
    float r = ratio_at(p);
    float r_width = max(fwidth(r), 1e-5);  // derivatives in uniform control flow only
    vec3 colour;
    if (r < 0.0) {
        vec2 px = gl_FragCoord.xy / u_scale;
        float h = min(abs(fract((px.x + px.y) / 10.0) - 0.5), abs(fract((px.x - px.y) / 10.0) - 0.5));
        colour = mix(u_invalid[0], u_invalid[1], smoothstep(0.06, 0.12, h));
    } else if (r > 1.0) {
        colour = over_colour(r);
        float s = fract((gl_FragCoord.x - gl_FragCoord.y) / (9.0 * u_scale));
        colour *= mix(1.0, 0.82, smoothstep(0.45, 0.55, s) - smoothstep(0.95, 1.0, s));
    } else {
        colour = fit_colour(r);
    }

    // Contour at ratio = 1: sample the side of the boundary around the pixel.
    vec2 footprint = fwidth(p) * u_line_px;  // grid units per (line half-width)
    float over = 0.0, valid = 0.0;
    for (int k = 0; k < 8; ++k) {
        float a = float(k) * 0.785398;
        float v = ratio_at(p + footprint * vec2(cos(a), sin(a)));
        if (v >= 0.0) {
            valid += 1.0;
            over += v > 1.0 ? 1.0 : 0.0;
        }
    }
    if (r >= 0.0) {
        valid += 1.0;
        over += r > 1.0 ? 1.0 : 0.0;
    }
    float mixed = valid > 0.0 ? 1.0 - abs(2.0 * over / valid - 1.0) : 0.0;
    float line = smoothstep(0.0, 0.45, mixed);
    colour = mix(colour, vec3(0.97, 0.98, 1.0), line * 0.95);

    // Faint iso-lines at 50 % and 75 % of capacity where both axes are dense.
    if (u_smooth.x * u_smooth.y > 0.5 && r >= 0.0 && r <= 1.0) {
        float iso = 1.0 - smoothstep(0.5, 1.5, abs(r - 0.5) / r_width);
        iso = max(iso, 1.0 - smoothstep(0.5, 1.5, abs(r - 0.75) / r_width));
        colour = mix(colour, vec3(1.0), iso * 0.22);
    }
    frag_color = vec4(colour, 1.0);
}
