// Starts Swagger UI on the docs page; the page's own reference stays for readers without JavaScript.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") {
    return;
  }
  window.SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    persistAuthorization: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
  var reference = document.getElementById("reference");
  if (reference) {
    reference.hidden = true;
  }
})();
