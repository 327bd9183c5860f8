// Serving fit map: context length across, concurrency up (both log-spaced by the core's
// serving_context_axis / serving_concurrency_axis). Texel (x, y) holds KV need / KV pool at
// contexts[x], concurrencies[y] (serving_fit_grid_into); -1 marks an invalid scenario.
// Fits (≤ 1): greens, lighter towards the limit. Does not fit: reds, darker the further over,
// with horizontal stripes (another pattern than the training map's). Invalid: grey hatch.
// The ratio = 1 boundary: an anti-aliased line found per pixel from the fits / does-not-fit side
// sampled around the pixel's footprint, with a soft halo on the side that fits.
uniform sampler2D u_grid;  // R32F, read with texelFetch
uniform vec2 u_cells;      // grid size (columns, rows)
uniform vec2 u_smooth;     // per axis: 1 = interpolate between cell centres
uniform float u_line_px;   // boundary half-width in framebuffer pixels
uniform float u_scale;     // device pixel ratio
// Colours from src/app/fitmap.hpp (serving_ramp, over_near/far, invalid_light/dark).
uniform vec4 u_ramp[4];
uniform vec3 u_over[2];
uniform vec3 u_invalid[2];

in vec2 v_uv;
out vec4 frag_color;

float cell(ivec2 c) {
    c = clamp(c, ivec2(0), ivec2(u_cells) - 1);
    return texelFetch(u_grid, c, 0).r;
}

// Bilinear between cell centres; nearest next to invalid cells.
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

void main() {
    vec2 p = v_uv * u_cells;
    float r = ratio_at(p);
    vec3 colour;
    if (r < 0.0) {
        vec2 px = gl_FragCoord.xy / u_scale;
        float h = abs(fract((px.x + px.y) / 8.0) - 0.5);
        colour = mix(u_invalid[0], u_invalid[1], smoothstep(0.08, 0.16, h));
    } else if (r > 1.0) {
        colour = mix(u_over[0], u_over[1], clamp(log2(r) / 3.0, 0.0, 1.0));
        float s = fract(gl_FragCoord.y / (6.0 * u_scale));
        colour *= mix(1.0, 0.86, smoothstep(0.4, 0.5, s) - smoothstep(0.9, 1.0, s));
    } else {
        colour = fit_colour(r);
    }

    // Boundary at ratio = 1, and how near the pixel is to it (for the halo).
    vec2 footprint = fwidth(p) * u_line_px;
    float over = 0.0, valid = 0.0, near_fit = 0.0;
    for (int k = 0; k < 8; ++k) {
        float a = float(k) * 0.785398;
        vec2 dir = vec2(cos(a), sin(a));
        float v = ratio_at(p + footprint * dir);
        if (v >= 0.0) {
            valid += 1.0;
            over += v > 1.0 ? 1.0 : 0.0;
        }
        float far = ratio_at(p + footprint * dir * 4.0);
        near_fit += far > 1.0 ? 1.0 : 0.0;
    }
    if (r >= 0.0) {
        valid += 1.0;
        over += r > 1.0 ? 1.0 : 0.0;
    }
    float mixed = valid > 0.0 ? 1.0 - abs(2.0 * over / valid - 1.0) : 0.0;
    if (r >= 0.0 && r <= 1.0) colour = mix(colour, vec3(1.0), 0.18 * near_fit / 8.0);  // halo inside the fit side
    colour = mix(colour, vec3(1.0), smoothstep(0.0, 0.4, mixed));
    frag_color = vec4(colour, 1.0);
}
