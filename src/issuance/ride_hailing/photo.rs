//! The driver's photo a passenger sees beside a valid sticker (LGPD art. 7º, VII and
//! art. 11, II, e: protection of the passenger's safety). An upload is decoded with size and
//! memory limits, turned upright by its EXIF orientation, scaled to fit [`MAX_WIDTH`] ×
//! [`MAX_HEIGHT`] and re-encoded as a JPEG: nothing of the original file (EXIF, GPS position,
//! camera, comments) survives.

use std::io::Cursor;

use chrono::{DateTime, Utc};
use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageDecoder as _, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::issuance::UseCaseError;
use crate::state::AppState;
use crate::storage::DriverPhoto;

/// Largest upload accepted.
pub const MAX_UPLOAD_BYTES: usize = 2 * 1024 * 1024;
/// The stored photo fits in this box (3 × 4, portrait), keeping its proportions.
pub const MAX_WIDTH: u32 = 480;
pub const MAX_HEIGHT: u32 = 640;
/// A face must be recognisable: no side shorter than this.
pub const MIN_SIDE: u32 = 160;
const JPEG_QUALITY: u8 = 85;

/// Why an upload is not a usable photo; each says it in pt-BR.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoError {
    #[error("A foto deve ser um arquivo JPEG ou PNG.")]
    NotAnImage,
    #[error("O arquivo não pôde ser lido como imagem: está incompleto ou corrompido.")]
    Unreadable,
    #[error("A foto é grande demais para ser processada (máximo de 8000 × 8000 pixels).")]
    TooManyPixels,
    #[error("A foto é pequena demais: cada lado deve ter ao menos {MIN_SIDE} pixels.")]
    TooSmall,
}

/// Decodes, straightens, scales and re-encodes an uploaded JPEG or PNG.
pub fn prepare(upload: &[u8]) -> Result<DriverPhoto, PhotoError> {
    let reader = ImageReader::new(Cursor::new(upload))
        .with_guessed_format()
        .map_err(|_| PhotoError::Unreadable)?;
    if !matches!(reader.format(), Some(ImageFormat::Jpeg | ImageFormat::Png)) {
        return Err(PhotoError::NotAnImage);
    }
    let mut reader = reader;
    let mut limits = Limits::default();
    limits.max_image_width = Some(8000);
    limits.max_image_height = Some(8000);
    limits.max_alloc = Some(256 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| decode_error(&e))?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(|e| decode_error(&e))?;
    img.apply_orientation(orientation);
    if img.width() < MIN_SIDE || img.height() < MIN_SIDE {
        return Err(PhotoError::TooSmall);
    }
    let img = if img.width() > MAX_WIDTH || img.height() > MAX_HEIGHT {
        img.resize(MAX_WIDTH, MAX_HEIGHT, image::imageops::FilterType::Triangle)
    } else {
        img
    };
    let rgb = img.to_rgb8();
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(|_| PhotoError::Unreadable)?;
    Ok(DriverPhoto {
        sha256: hex(&Sha256::digest(&jpeg)),
        width: rgb.width(),
        height: rgb.height(),
        jpeg,
    })
}

fn decode_error(e: &image::ImageError) -> PhotoError {
    match e {
        image::ImageError::Limits(_) => PhotoError::TooManyPixels,
        _ => PhotoError::Unreadable,
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Sets the photo of driver `driver_id` from an upload; the stored photo's description.
pub async fn set_driver_photo(
    state: &AppState,
    actor: &str,
    driver_id: Uuid,
    upload: &[u8],
    now: DateTime<Utc>,
) -> Result<Result<DriverPhoto, PhotoError>, UseCaseError> {
    // Decoding is CPU work: off the async workers.
    let bytes = upload.to_vec();
    let prepared = tokio::task::spawn_blocking(move || prepare(&bytes))
        .await
        .map_err(|_| UseCaseError::Encoding)?;
    let photo = match prepared {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if !state
        .store
        .set_driver_photo(driver_id, &photo, actor, now)
        .await?
    {
        return Err(UseCaseError::NotFound("Motorista não encontrado."));
    }
    Ok(Ok(photo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([
                u8::try_from(x % 256).unwrap(),
                u8::try_from(y % 256).unwrap(),
                128,
            ])
        });
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn a_large_png_becomes_a_bounded_jpeg() {
        let p = prepare(&png(1200, 1600)).unwrap();
        assert_eq!((p.width, p.height), (480, 640));
        assert_eq!(&p.jpeg[..3], &[0xFF, 0xD8, 0xFF]);
        assert_eq!(p.sha256.len(), 64);
    }

    #[test]
    fn what_is_not_a_usable_photo_says_why() {
        assert_eq!(prepare(b"%PDF-1.7 ..."), Err(PhotoError::NotAnImage));
        assert_eq!(prepare(&png(100, 300)), Err(PhotoError::TooSmall));
        let mut cut = png(400, 400);
        cut.truncate(cut.len() / 2);
        assert_eq!(prepare(&cut), Err(PhotoError::Unreadable));
    }
}
