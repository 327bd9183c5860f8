// Page background: a vertical gradient with a soft glow behind the header, dithered so the
// gradient shows no bands on 8-bit displays.
uniform vec2 u_resolution;  // framebuffer size in pixels
uniform vec3 u_top;         // colour at the top edge (linear-ish sRGB, 0..1)
uniform vec3 u_bottom;      // colour at the bottom edge
uniform vec3 u_glow;        // added colour at the glow centre
uniform vec2 u_glow_center; // in v_uv units (0..1, y up)

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 colour = mix(u_bottom, u_top, smoothstep(0.0, 1.0, v_uv.y));
    float aspect = u_resolution.x / max(u_resolution.y, 1.0);
    vec2 d = (v_uv - u_glow_center) * vec2(aspect, 1.0);
    colour += u_glow * exp(-dot(d, d) * 3.0);
    // Interleaved gradient noise (Jimenez 2014): cheap, no sin(), good for dithering.
    float noise = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
    colour += (noise - 0.5) / 255.0;
    frag_color = vec4(colour, 1.0);
}
