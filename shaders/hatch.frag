// Diagonal stripes over a rectangle inside the ImGui frame (drawn through an ImDrawList
// callback): marks the part of the memory bar beyond the GPU's capacity.
uniform vec4 u_colour_a;   // stripe colour (premultiplied alpha not assumed)
uniform vec4 u_colour_b;   // gap colour
uniform float u_period;    // stripe period in framebuffer pixels
uniform float u_radius;    // corner radius in framebuffer pixels (right-hand corners only)
uniform vec2 u_size;       // rectangle size in framebuffer pixels

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec2 p = v_uv * u_size;
    float t = fract((gl_FragCoord.x + gl_FragCoord.y) / u_period);
    float stripe = smoothstep(0.45, 0.5, t) - smoothstep(0.95, 1.0, t);
    vec4 colour = mix(u_colour_b, u_colour_a, stripe);
    // Round the right-hand corners so the stripes follow the bar's outline.
    vec2 corner = vec2(u_size.x - u_radius, clamp(p.y, u_radius, u_size.y - u_radius));
    float outside = (p.x > corner.x) ? length(p - corner) - u_radius : -1.0;
    colour.a *= 1.0 - smoothstep(-0.5, 0.5, outside);
    frag_color = colour;
}
