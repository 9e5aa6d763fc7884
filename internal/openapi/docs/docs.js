// The reference page: Swagger UI on the server's own /openapi.json. Nothing is loaded from
// another host (the page's Content-Security-Policy allows only this origin): no validator
// badge, no fonts, no analytics.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: true,
  displayOperationId: false,
  docExpansion: "list",
  filter: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
