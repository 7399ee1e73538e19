// Kafka Lab embed host script: resizes the Kafka Lab iframe that sent a height message.
// Usage: <iframe class="kafka-lab" src="https://HOST/PATH/?scene=overview&embed=1"></iframe>
//        <script src="https://HOST/PATH/embed.js" defer></script>
(function () {
  "use strict";
  var MESSAGE_TYPE = "kafka-lab:height";

  function originOf(frame) {
    try {
      return new URL(frame.getAttribute("src"), document.baseURI).origin;
    } catch (e) {
      return null;
    }
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== MESSAGE_TYPE || typeof data.height !== "number") return;
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      // Only the iframe that sent the message, and only if it comes from the origin its src names.
      if (frame.contentWindow !== event.source) continue;
      if (originOf(frame) !== event.origin) return;
      var height = Math.max(120, Math.min(Math.ceil(data.height), 20000));
      frame.style.height = height + "px";
      return;
    }
  });
})();
