// A rectangle drawn as a 4-vertex triangle strip with no vertex buffers (gl_VertexID only).
// u_rect: the rectangle in clip space (x0, y0, x1, y1). v_uv: 0..1 across it, y up.
// Shared by every full-rect effect: background, bar hatching, and later the fit-map heatmap.
uniform vec4 u_rect;
out vec2 v_uv;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    v_uv = corner;
    gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
