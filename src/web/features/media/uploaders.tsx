import { type AriaAttributes, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useUploadInput } from "#web/features/media/media-data.ts";
import { MediaPicker } from "#web/features/media/media-picker.tsx";
import { toast, toastError } from "#web/stores/toast.ts";

const MB = 1024 * 1024;

interface UploaderProps {
  /** Absent (a form that never set it) is no file. */
  value?: string | null;
  onChange: (url: string | null) => void;
  label: string;
}

/** The single image uploader (idle, uploading, preview, or choose from the library), with the field's validation message. */
export function ImageUploader({ value, onChange, label, error }: UploaderProps & { error?: string }) {
  const { busy, input, send } = useUploadInput("There was a problem uploading your image. Please try again.");
  // "Choose from library": an image already uploaded, picked in the media library.
  const [picking, setPicking] = useState(false);
  const id = useId();

  async function pick(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toastError("Please select an image file.", "Invalid file type");
      return;
    }
    if (file.size > 5 * MB) {
      toastError("Image must be less than 5MB.", "File too large");
      return;
    }
    const uploaded = await send(file);
    if (!uploaded) return;
    onChange(uploaded.url);
    toast({ title: "Image uploaded", description: "Your image has been uploaded successfully." });
  }

  const described = error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  return (
    <div className="uploader">
      {/* A label names a control that is there: with a preview shown the file field is not. */}
      {value ? <p className="uploader-label">{label}</p> : <label htmlFor={id}>{label}</label>}
      {value ? (
        <UploadPreview removed="Image removed" onRemove={() => onChange(null)} described={described}>
          <img src={value} alt="Preview of the upload" />
        </UploadPreview>
      ) : (
        <>
          <input
            ref={input}
            id={id}
            type="file"
            accept="image/*"
            disabled={busy}
            {...described}
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          {busy && <p aria-live="polite">Uploading...</p>}
          <button type="button" className="secondary outline small-button" onClick={() => setPicking(true)}>
            Choose from library<span className="visually-hidden"> for {label}</span>
          </button>
          <MediaPicker
            open={picking}
            onPick={(item) => {
              setPicking(false);
              onChange(item.url);
            }}
            onClose={() => setPicking(false)}
          />
        </>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

type Accept = "both" | "image" | "video";

interface MediaUploaderProps extends UploaderProps {
  accept?: Accept;
  maxMb?: number;
}

const WRONG_TYPE: Record<Accept, string> = {
  both: "Please upload an image or video file",
  image: "Please upload an image file (jpeg, png, etc.)",
  video: "Please upload a video file (mp4, webm, etc.)",
};

/** The media uploader (images and/or videos, configurable limit). */
export function MediaUploader({ value, onChange, label, accept = "both", maxMb = 100 }: MediaUploaderProps) {
  const { busy, input, send } = useUploadInput("Failed to upload file. Please try again.");
  const [isVideo, setIsVideo] = useState(() => Boolean(value && /\.(mp4|webm|ogg)$/i.test(value)));
  const id = useId();

  async function pick(file: File | undefined) {
    if (!file) return;
    const video = file.type.startsWith("video/");
    const ok = (accept !== "video" && file.type.startsWith("image/")) || (accept !== "image" && video);
    if (!ok) {
      toastError(WRONG_TYPE[accept], "Invalid file type");
      return;
    }
    if (file.size > maxMb * MB) {
      toastError(`File must be less than ${maxMb}MB`, "File too large");
      return;
    }
    const uploaded = await send(file);
    if (!uploaded) return;
    onChange(uploaded.url);
    setIsVideo(video);
    toast({ title: "Upload successful", description: `${video ? "Video" : "Image"} has been uploaded successfully` });
  }

  const acceptAttr =
    accept === "both"
      ? "image/*,video/mp4,video/webm,video/ogg"
      : accept === "image"
        ? "image/*"
        : "video/mp4,video/webm,video/ogg";
  return (
    <div className="uploader">
      {/* A label names a control that is there: with a preview shown the file field is not. */}
      {value ? <p className="uploader-label">{label}</p> : <label htmlFor={id}>{label}</label>}
      {value ? (
        <UploadPreview removed={isVideo ? "Video removed" : "Image removed"} onRemove={() => onChange(null)}>
          {isVideo ? <PreviewVideo src={value} /> : <img src={value} alt="Preview of the upload" />}
        </UploadPreview>
      ) : (
        <>
          <input
            ref={input}
            id={id}
            type="file"
            accept={acceptAttr}
            disabled={busy}
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          <small>{accept === "image" ? "Images up to 5MB." : `MP4, WebM and Ogg, max ${maxMb}MB.`}</small>
          {busy && <p aria-live="polite">Uploading...</p>}
        </>
      )}
    </div>
  );
}

/** What an uploader holds, with the button that takes it out (and says so in a toast). */
function UploadPreview({
  removed,
  onRemove,
  described,
  children,
}: {
  removed: string;
  onRemove: () => void;
  /** The field's validation message, when there is one, told with the button. */
  described?: AriaAttributes;
  children: ReactNode;
}) {
  return (
    <div className="upload-preview">
      {children}
      <button
        type="button"
        className="secondary outline"
        {...described}
        onClick={() => {
          onRemove();
          toast({ title: removed });
        }}
      >
        Remove
      </button>
    </div>
  );
}

/** Offer video preview: muted, looping autoplay, started after 300 ms and retried once after 500 ms. */
function PreviewVideo({ src }: { src: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const play = () => ref.current?.play();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const first = setTimeout(() => {
      play()?.catch(() => {
        retry = setTimeout(() => void play()?.catch(() => {}), 500);
      });
    }, 300);
    return () => {
      clearTimeout(first);
      if (retry) clearTimeout(retry);
    };
  }, [src]);
  return <video ref={ref} src={src} muted loop playsInline aria-label="Preview of the uploaded video" />;
}
