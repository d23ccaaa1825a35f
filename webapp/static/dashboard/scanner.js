/* The scanner page: rear camera -> barcode text -> the verdict endpoint -> a full-screen
   green or red answer with a beep and a buzz, then ready for the next pass.

   Decoding: the browser's BarcodeDetector where it reads all four formats (Android
   Chrome, Safari 17+ on some devices), else ZXing (static/vendor/zxing-library-*.min.js,
   Apache-2.0, plain JavaScript: no eval, no WebAssembly, so the dashboard's CSP holds). */
(function () {
  "use strict";

  var FORMATS = ["qr_code", "pdf417", "aztec", "code_128"];
  var FRAME_GAP_MS = 100;        // between two decode attempts
  var SHOW_VALID_MS = 2500;      // a verdict stays at least this long: green...
  var SHOW_REFUSED_MS = 6000;    // ...and red, which staff read
  // A scanned verdict then stays while its code is in view: the code has left the view when
  // no frame has read it for this long (a frame or two that fail to read are common).
  var LEFT_VIEW_MS = 1500;
  // After a verdict went away, the same code is not judged again for this long: read again
  // (the pass came back into view), it shows the same verdict; after "Next", nothing.
  var REPEAT_PAUSE_MS = 4000;

  var form = document.getElementById("scan-form");
  var video = document.getElementById("scan-video");
  var statusLine = document.getElementById("scan-status");
  var box = document.getElementById("verdict-box");
  var codeInput = document.getElementById("scan-code");
  var pending = false;           // a request is out
  var shown = null;              // the verdict on screen: {node, at, valid}
  // The code the camera read last and its verdict: {code, node, seenAt, goneAt, tapped}.
  var judged = null;
  var decode = null, audio = null;
  var typed = false;             // the verdict on screen answers a typed code

  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) {
    document.getElementById("scan-tz").value = zone;
    document.getElementById("scan-zone-name").textContent = zone;
  }

  function say(text) { statusLine.textContent = text; }

  // ---- the verdict ----------------------------------------------------------------------

  // `camera`: the code as the camera read it (null for a typed one).
  function judge(code, decodedAt, camera) {
    pending = true;
    var data = new FormData(form);
    data.set("code", code);
    fetch(form.action, {method: "POST", body: data, credentials: "same-origin",
                        headers: {"HX-Request": "true"}})
      .then(function (response) {
        var away = response.headers.get("HX-Redirect");  // signed out meanwhile
        if (away) { window.location.assign(away); return; }
        return response.text().then(function (html) {
          if (html.indexOf('id="verdict"') >= 0) { show(html, decodedAt, camera); return; }
          // The dashboard's error card (a form that expired, text a pass cannot hold): its words.
          var card = new DOMParser().parseFromString(html, "text/html");
          var title = card.querySelector("h1"), detail = card.querySelector("h1 + p");
          problem(title && detail ? title.textContent + ": " + detail.textContent
                                  : "Could not check this code (HTTP " + response.status + ").",
                  decodedAt);
        });
      })
      .catch(function () { problem("No connection to the server. Try again.", decodedAt); })
      .then(function () { pending = false; });
  }

  function show(html, decodedAt, camera) {
    box.innerHTML = html;  // our own template's fragment, escaped by Jinja
    var verdict = box.querySelector("#verdict");
    if (camera !== null) {
      judged = {code: camera, node: verdict, seenAt: performance.now(), goneAt: 0,
                tapped: false};
    }
    present(verdict, decodedAt);
  }

  function problem(text, decodedAt) {
    var section = document.createElement("section");
    section.className = "verdict problem";
    section.id = "verdict";
    section.dataset.verdict = "error";
    section.setAttribute("role", "alert");
    var title = document.createElement("h1");
    title.className = "verdict-title";
    title.textContent = "Not checked";
    var reason = document.createElement("p");
    reason.className = "verdict-reason";
    reason.textContent = text;
    section.append(title, reason);
    box.replaceChildren(section);
    present(section, decodedAt);
  }

  function present(verdict, decodedAt) {
    var valid = verdict.dataset.verdict === "valid";
    shown = {node: verdict, at: performance.now(), valid: valid};
    // Decoded (or typed) to verdict on screen: the browser test reads it.
    verdict.dataset.elapsedMs = String(Math.round(performance.now() - decodedAt));
    verdict.setAttribute("tabindex", "-1");
    verdict.focus();
    signal(valid);
  }

  // The verdict goes when it has been read and, for a scanned code, the code left the view.
  function expire() {
    if (!shown) return;
    if (shown.node.dataset.verdict === "balance") return;  // a card's controls stay till Done
    var now = performance.now();
    if (now - shown.at < (shown.valid ? SHOW_VALID_MS : SHOW_REFUSED_MS)) return;
    if (judged && judged.node === shown.node && now - judged.seenAt < LEFT_VIEW_MS) return;
    dismiss(false);
  }
  setInterval(expire, 200);

  function dismiss(tapped) {
    if (judged && shown && judged.node === shown.node) {
      judged.goneAt = performance.now();
      judged.tapped = tapped;
    }
    shown = null;
    box.replaceChildren();
    codeInput.value = "";
    if (typed) codeInput.focus();  // the next typed ID; a scan leaves the keyboard closed
    typed = false;
  }

  // A code the camera read: judged once; read again, the verdict it had.
  function scanned(text) {
    var now = performance.now();
    if (judged && text === judged.code) {
      judged.seenAt = now;
      if (shown) return;  // its verdict is on screen and stays
      if (now - judged.goneAt < REPEAT_PAUSE_MS) {
        if (!judged.tapped) {  // back in view: the same verdict again, not a new one
          box.replaceChildren(judged.node);
          present(judged.node, now);
        }
        return;
      }
    } else if (shown && now - shown.at < (shown.valid ? SHOW_VALID_MS : SHOW_REFUSED_MS)) {
      return;  // another pass: after this verdict has been read
    }
    if (shown) dismiss(false);
    judge(text, now, text);
  }

  // A loyalty or gift card's controls: the form's answer is the card's screen again.
  box.addEventListener("submit", function (event) {
    var card = event.target.closest("form[data-balance]");
    if (!card) return;
    event.preventDefault();
    var data = new FormData(card);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    fetch(card.action, {method: "POST", body: data, credentials: "same-origin",
                        headers: {"HX-Request": "true"}})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        box.innerHTML = html;  // our own template's fragment, escaped by Jinja
        var verdict = box.querySelector("#verdict");
        if (verdict) present(verdict, performance.now());
      })
      .catch(function () { problem("No connection to the server. Try again.", performance.now()); });
  });

  box.addEventListener("click", function (event) {
    if (!box.firstElementChild) return;
    if (event.target.closest("form")) return;  // a card's controls, not a dismissal
    event.preventDefault();  // the "next scan" link is for pages without this script
    dismiss(true);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("form[data-balance]")) return;  // typing
    if (shown && (event.key === "Enter" || event.key === "Escape" || event.key === " ")) {
      event.preventDefault();
      dismiss(true);
    }
  });

  // A typed short ID takes the same way as a scanned one.
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var code = codeInput.value.trim();
    // An empty field: nothing to judge (an Enter meant for a verdict that had already gone).
    if (pending || shown || !code) return;
    typed = true;
    judge(code, performance.now(), null);
  });

  // ---- sound and vibration --------------------------------------------------------------

  // Browsers start audio only after a touch or key: make it ready on the first one.
  function unlockAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", unlockAudio, {passive: true});
  document.addEventListener("keydown", unlockAudio);

  function beep(frequency, start, length) {
    var tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = frequency;
    tone.type = "square";
    gain.gain.setValueAtTime(0.15, audio.currentTime + start);
    gain.gain.setValueAtTime(0, audio.currentTime + start + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(audio.currentTime + start);
    tone.stop(audio.currentTime + start + length);
  }

  function signal(valid) {
    if (navigator.vibrate) navigator.vibrate(valid ? 80 : [220, 90, 220]);
    if (!audio || audio.state !== "running") return;
    if (valid) { beep(1320, 0, 0.12); } else { beep(220, 0, 0.18); beep(220, 0.25, 0.18); }
  }

  // ---- camera and decoder ---------------------------------------------------------------

  function nativeDecoder() {
    if (!("BarcodeDetector" in window)) return Promise.resolve(null);
    return window.BarcodeDetector.getSupportedFormats().then(function (supported) {
      if (!FORMATS.every(function (f) { return supported.indexOf(f) >= 0; })) return null;
      var detector = new window.BarcodeDetector({formats: FORMATS});
      return function (source) {
        return detector.detect(source).then(function (found) {
          return found.length ? found[0].rawValue : null;
        });
      };
    }).catch(function () { return null; });
  }

  function zxingDecoder() {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = document.body.dataset.decoder;
      script.addEventListener("load", function () { resolve(zxingReader(window.ZXing)); });
      script.addEventListener("error", reject);
      document.head.append(script);
    });
  }

  function zxingReader(Z) {
    var hints = new Map();
    hints.set(Z.DecodeHintType.POSSIBLE_FORMATS, [Z.BarcodeFormat.QR_CODE,
      Z.BarcodeFormat.PDF_417, Z.BarcodeFormat.AZTEC, Z.BarcodeFormat.CODE_128]);
    hints.set(Z.DecodeHintType.TRY_HARDER, true);
    var reader = new Z.MultiFormatReader();
    reader.setHints(hints);
    var canvas = document.createElement("canvas");
    var context = canvas.getContext("2d", {willReadFrequently: true});
    return function (source) {
      // At most 800 pixels across: plenty for a pass held up to the phone, and fast.
      var scale = Math.min(1, 800 / Math.max(source.videoWidth, source.videoHeight));
      canvas.width = Math.round(source.videoWidth * scale);
      canvas.height = Math.round(source.videoHeight * scale);
      context.drawImage(source, 0, 0, canvas.width, canvas.height);
      try {
        var bitmap = new Z.BinaryBitmap(new Z.HybridBinarizer(
          new Z.HTMLCanvasElementLuminanceSource(canvas)));
        return Promise.resolve(reader.decodeWithState(bitmap).getText());
      } catch (error) {
        return Promise.resolve(null);  // no readable code in this frame
      } finally {
        reader.reset();
      }
    };
  }

  function tick() {
    if (pending || video.readyState < 2 || !video.videoWidth) {
      setTimeout(tick, FRAME_GAP_MS);
      return;
    }
    decode(video).then(function (text) {
      if (text && !pending && !typed) scanned(text);
    }).catch(function () { /* a frame the decoder could not take: try the next */ })
      .then(function () { setTimeout(tick, FRAME_GAP_MS); });
  }

  function start() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say("No camera here (it needs HTTPS): type the short ID below.");
      return;
    }
    navigator.mediaDevices.getUserMedia({audio: false, video: {
      facingMode: {ideal: "environment"}, width: {ideal: 1280}, height: {ideal: 720}}})
      .then(function (stream) {
        video.srcObject = stream;
        return video.play();
      })
      .then(nativeDecoder)
      .then(function (native) {
        document.body.dataset.reader = native ? "BarcodeDetector" : "ZXing";
        return native || zxingDecoder();
      })
      .then(function (decoder) {
        decode = decoder;
        say("Point the camera at the pass's barcode.");
        tick();
      })
      .catch(function (error) {
        say(error && error.name === "NotAllowedError"
          ? "Camera access was refused: allow it in the browser's settings, or type the short ID below."
          : "The camera could not start: type the short ID below.");
      });
  }

  // The verdict of a page posted without this script (manual entry) is already on screen.
  if (box.firstElementChild) present(box.querySelector("#verdict"), performance.now());
  start();
})();
