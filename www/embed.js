// Kafka Lab embed host script: resizes the Kafka Lab iframe that sent a height message.
// Usage: <iframe class="kafka-lab" src="https://HOST/PATH/overview/?embed=1"></iframe>
//        <script src="https://HOST/PATH/embed.js" defer></script>
// It acts only on iframes with the class "kafka-lab", only for the one whose window sent the
// message, only if the message comes from the origin that iframe's src names, and only within
// MIN_HEIGHT..MAX_HEIGHT px: another widget on the page cannot use it to resize itself.
(function () {
  "use strict";
  var MESSAGE_TYPE = "kafka-lab:height";
  var MIN_HEIGHT = 120;
  var MAX_HEIGHT = 4000;

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
    var frames = document.querySelectorAll("iframe.kafka-lab");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      // Only the iframe that sent the message, and only if it comes from the origin its src names.
      if (frame.contentWindow !== event.source) continue;
      if (originOf(frame) !== event.origin) return;
      var height = Math.max(MIN_HEIGHT, Math.min(Math.ceil(data.height), MAX_HEIGHT));
      frame.style.height = height + "px";
      return;
    }
  });
})();
